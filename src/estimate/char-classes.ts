/**
 * Characters of a text by how densely o200k tokenizes them, so a sampled estimate can charge each
 * class at its own rate (estimate/tokenizer.ts): dense text (CJK, Hangul, kana: about one token per
 * character) placed only between the samples of a long text otherwise took the rate of the ASCII
 * prose at the sample points, about a quarter token per character.
 */
import { Buffer } from 'node:buffer';

/** Counts by class, in UTF-16 units, by the UTF-8 width o200k's byte-level merges start from. */
interface CharClasses {
  /** One byte: U+0000-U+007F. */
  ascii: number;
  /** Two bytes: U+0080-U+07FF (Latin with accents, Greek, Cyrillic, Hebrew, Arabic). */
  narrow: number;
  /** Three bytes or a surrogate half: CJK, Hangul, kana, Thai, Indic scripts, symbols, emoji. */
  wide: number;
}

/**
 * Prior o200k tokens per UTF-16 unit of each class, by which the samples' tokens are shared among their
 * classes. Measured with js-tiktoken (docs/design.md, "Measuring"): ASCII prose 0.22, logs 0.41;
 * Cyrillic 0.24, Arabic 0.25; random CJK 0.98, Japanese 0.57, Korean 0.38, Thai 0.40, emoji 0.96.
 */
const CLASS_RATES: Readonly<CharClasses> = { ascii: 0.3, narrow: 0.5, wide: 1 };

/**
 * The least a class the samples under-represent is charged per UTF-16 unit: one token for any non-ASCII
 * unit (a two-byte letter o200k has no merge for, a combining mark, is one token or more), the prior for ASCII.
 */
const UNSEEN_RATES: Readonly<CharClasses> = { ascii: 0.3, narrow: 1, wide: 1 };

const CLASSES = ['ascii', 'narrow', 'wide'] as const;

/** Adds the classes of `text[from, to)` to `into`. */
export function countClasses(text: string, from: number, to: number, into: CharClasses): void {
  let nonAscii = 0;
  let narrow = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    nonAscii++;
    if (c < 0x800) narrow++;
  }
  into.ascii += to - from - nonAscii;
  into.narrow += narrow;
  into.wide += nonAscii - narrow;
}

/**
 * The classes of the whole text. An ASCII text (logs, JSON, code: the usual long text) is told by its
 * UTF-8 length, natively (about 0.1 ms per million characters); any other is walked once from its first
 * non-ASCII character (about 1.2 ms per million; script and figures: docs/design.md, "Measuring").
 */
export function classesOf(text: string): CharClasses {
  if (Buffer.byteLength(text, 'utf8') === text.length) return { ascii: text.length, narrow: 0, wide: 0 };
  const first = Math.max(0, text.search(NON_ASCII));
  const classes = { ascii: first, narrow: 0, wide: 0 };
  countClasses(text, first, text.length, classes);
  return classes;
}

const NON_ASCII = /[\u0080-\uffff]/;

/**
 * Tokens of a text with classes `text`, from samples with classes `sampled` that counted `tokens`. The
 * samples' tokens are shared among their classes by the prior rates (one scale for all); a class the
 * samples saw at half its share of the text or more is charged scale × its prior, which is the plain
 * extrapolation (tokens × text length / sampled length) when the samples mirror the text; a class they
 * saw less, or not at all, is charged at least its `UNSEEN_RATES`, whatever the samples' scale.
 */
export function extrapolateByClass(tokens: number, sampled: CharClasses, text: CharClasses): number {
  const sampledTotal = sampled.ascii + sampled.narrow + sampled.wide;
  const textTotal = text.ascii + text.narrow + text.wide;
  let expected = 0;
  for (const name of CLASSES) expected += sampled[name] * CLASS_RATES[name];
  const scale = expected > 0 ? tokens / expected : 1;
  let estimate = 0;
  for (const name of CLASSES) {
    if (text[name] === 0) continue;
    const represented = sampled[name] * textTotal * 2 >= text[name] * sampledTotal;
    const rate = scale * CLASS_RATES[name];
    estimate += text[name] * (represented ? rate : Math.max(rate, UNSEEN_RATES[name]));
  }
  return estimate;
}
