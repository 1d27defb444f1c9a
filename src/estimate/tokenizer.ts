/**
 * Token counting for estimates.
 *
 * The base count comes from the `o200k_base` encoding (the vocabulary that
 * js-tiktoken ships), which is close to Gemini's SentencePiece counts for prose
 * and code; `splitDigitsTokenizer`, an option, counts every digit as one token,
 * as Gemini does (estimate/split-digits.ts); the calibration factor learned from
 * the provider's real counts covers the rest.
 *
 * A text of up to 2,048 characters is counted whole by o200k's algorithm,
 * reimplemented for counting in `o200k/`: exactly js-tiktoken's count when its
 * characters are of one- and two-byte scripts and its pieces at most 128 UTF-8
 * bytes; runs of CJK, Hangul or kana letters and longer pieces are approximated
 * (bounds in tokenizer.test.ts). A longer text is estimated from evenly spaced
 * samples, extrapolated per class of characters (estimate/char-classes.ts). Why this counter and not a library, with the figures and the command
 * that measures them: docs/performance.md.
 */
import { countExact } from './o200k/count-exact.js';
import { classesOf, countClasses, extrapolateByClass } from './char-classes.js';
import { tokensBeyondDigitGroups, tokensBeyondOtherDigits } from './split-digits.js';

/** Counts the tokens of a text. Swap it through `ContextGuardOptions.tokenizer`. */
export interface Tokenizer {
  /** A short name for logs and reports. */
  readonly name: string;
  /** Number of tokens in `text`; must be fast and never throw. */
  count(text: string): number;
}

/** Texts up to this many characters are encoded whole. */
const EXACT_LIMIT = 2048;
/** Size of one sample window of a long text. */
const SAMPLE_CHARS = 512;
/** One sample window per this many characters of a long text (at least 4, at most 64 windows). */
const CHARS_PER_SAMPLE = 8_192;
/** Safety margin on the extrapolated part of a sampled estimate. */
const SAMPLED_MARGIN = 1.05;

/**
 * Estimates a long text from evenly spaced windows, scaled to its length class by class
 * (estimate/char-classes.ts): dense text between the windows is charged at a dense rate.
 */
function countSampled(text: string): number {
  const windows = Math.min(64, Math.max(4, Math.ceil(text.length / CHARS_PER_SAMPLE)));
  const stride = (text.length - SAMPLE_CHARS) / (windows - 1);
  let sampledTokens = 0;
  const sampled = { ascii: 0, narrow: 0, wide: 0, dense: 0 };
  for (let i = 0; i < windows; i++) {
    const start = Math.floor(i * stride);
    const end = Math.min(text.length, start + SAMPLE_CHARS);
    sampledTokens += countExact(text.slice(start, end));
    countClasses(text, start, end, sampled);
  }
  return Math.ceil(extrapolateByClass(sampledTokens, sampled, classesOf(text), SAMPLED_MARGIN));
}

/** The default tokenizer: `o200k_base`, linearised and sampled as described above. */
export const tiktokenTokenizer: Tokenizer = {
  name: 'tiktoken-o200k',
  count(text: string): number {
    return text.length <= EXACT_LIMIT ? countExact(text) : countSampled(text);
  },
};

/**
 * `tiktokenTokenizer`'s count with every decimal digit one token, as Gemini's tokenizer and most open
 * models' count digits (o200k takes them three at a time): the `tokenizer` option for agents that read
 * numbers in bursts (not the default: docs/design.md, "Digits, one token each"). The digits are
 * counted over the whole text, never sampled.
 */
export const splitDigitsTokenizer: Tokenizer = {
  name: 'o200k-split-digits',
  count(text: string): number {
    const otherDigits = tokensBeyondOtherDigits(text, (run) => tiktokenTokenizer.count(run));
    return tiktokenTokenizer.count(text) + tokensBeyondDigitGroups(text) + otherDigits;
  },
};

/** The classic `characters / 4` heuristic; useful in tests and as a cheap fallback. */
export const charsPerTokenTokenizer: Tokenizer = {
  name: 'chars/4',
  count(text: string): number {
    return Math.ceil(text.length / 4);
  },
};
