/**
 * Token counting for estimates.
 *
 * The base count comes from js-tiktoken's `o200k_base` encoding, which is close
 * to (and usually above) Gemini's SentencePiece counts for prose and code; the
 * calibration factor learned from the provider's real counts covers the rest.
 *
 * Two measures keep the cost linear and bounded (see docs/performance.md):
 * - BPE is quadratic in the length of one pre-tokenized piece, so runs of more
 *   than 64 non-space characters are cut before encoding (a 10 KB run of one
 *   character takes seconds otherwise);
 * - a long text is estimated from evenly spaced samples rather than encoded
 *   whole, which caps the work at about 1/128 of the text.
 */
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';

/** Counts the tokens of a text. Swap it through `ContextGuardOptions.tokenizer`. */
export interface Tokenizer {
  /** A short name for logs and reports. */
  readonly name: string;
  /** Number of tokens in `text`; must be fast and never throw. */
  count(text: string): number;
}

const MAX_RUN = 16;
const LONG_RUN = new RegExp(`\\S{${MAX_RUN}}`, 'g');
/** Texts up to this many characters are encoded whole. */
const EXACT_LIMIT = 2048;
/** Size of one sample window of a long text. */
const SAMPLE_CHARS = 512;
/** One sample window per this many characters of a long text. */
const CHARS_PER_SAMPLE = 65_536;
/** Safety margin on the extrapolated part of a sampled estimate. */
const SAMPLED_MARGIN = 1.05;

let sharedEncoder: Tiktoken | undefined;
function encoder(): Tiktoken {
  sharedEncoder ??= new Tiktoken(o200kBase);
  return sharedEncoder;
}

function countExact(text: string): number {
  if (text.length === 0) return 0;
  // Cutting long runs keeps BPE linear; the inserted spaces can only add tokens.
  const bounded = text.length >= MAX_RUN ? text.replace(LONG_RUN, '$& ') : text;
  return encoder().encode(bounded, [], []).length;
}

/** Estimates a long text from evenly spaced windows, scaled to its length. */
function countSampled(text: string): number {
  const windows = Math.min(64, Math.max(4, Math.ceil(text.length / CHARS_PER_SAMPLE)));
  const stride = (text.length - SAMPLE_CHARS) / (windows - 1);
  let sampledTokens = 0;
  let sampledChars = 0;
  for (let i = 0; i < windows; i++) {
    const start = Math.floor(i * stride);
    const window = text.slice(start, start + SAMPLE_CHARS);
    sampledTokens += countExact(window);
    sampledChars += window.length;
  }
  return Math.ceil((sampledTokens / sampledChars) * text.length * SAMPLED_MARGIN);
}

/** The default tokenizer: `o200k_base`, linearised and sampled as described above. */
export const tiktokenTokenizer: Tokenizer = {
  name: 'tiktoken-o200k',
  count(text: string): number {
    return text.length <= EXACT_LIMIT ? countExact(text) : countSampled(text);
  },
};

/** The classic `characters / 4` heuristic; useful in tests and as a cheap fallback. */
export const charsPerTokenTokenizer: Tokenizer = {
  name: 'chars/4',
  count(text: string): number {
    return Math.ceil(text.length / 4);
  },
};
