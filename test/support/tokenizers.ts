/**
 * Deterministic tokenizers for unit tests, so expected numbers can be worked
 * out by hand next to the assertion.
 */
import type { Tokenizer } from '../../src/estimate/tokenizer.js';

/** One token per UTF-16 unit: the arithmetic of every expectation is a character count. */
export const characterTokenizer: Tokenizer = {
  name: 'characters',
  count: (text) => text.length,
};

/**
 * Four ASCII characters per token, one token per any other UTF-16 unit: the
 * shape of a real BPE on mixed English and CJK, but additive, so bounds on a
 * concatenation can be stated exactly.
 */
export const mixedScriptTokenizer: Tokenizer = {
  name: 'mixed-script',
  count(text) {
    let ascii = 0;
    let other = 0;
    for (let i = 0; i < text.length; i++) {
      if (text.charCodeAt(i) < 0x80) ascii++;
      else other++;
    }
    return Math.ceil(ascii / 4) + other;
  },
};

/** A tokenizer that records every text it is asked to count. */
export interface RecordingTokenizer extends Tokenizer {
  readonly counted: string[];
}

export function recordingTokenizer(inner: Tokenizer = characterTokenizer): RecordingTokenizer {
  const counted: string[] = [];
  return {
    name: `recording(${inner.name})`,
    counted,
    count(text) {
      counted.push(text);
      return inner.count(text);
    },
  };
}
