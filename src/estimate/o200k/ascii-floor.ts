/**
 * A floor under o200k's count of a text's ASCII, from one table lookup per character: the starts of
 * o200k's pre-tokenizer pieces (each piece is one token or more) and the letter pairs no common token
 * holds (random letters: base64, ids, hashes). A sampled estimate charges the text between its samples
 * at the samples' rate; dense ASCII there (base64, hex, digits, minified JSON between prose samples) was
 * counted at 0.3-0.6 of o200k's count, and this floor is what those runs cost at the least.
 */
import { loadEncoding, type Encoding } from './rank-tables.js';

/** A letter pair held by fewer o200k tokens than this is taken for a token boundary (see docs/design.md, "Measuring"). */
const RARE_PAIR_TOKENS = 30;
/** Stands for a non-ASCII character as the previous one: it may join a letter's piece (`naïve`). */
const NON_ASCII = 0x7f;
/** Stands for a non-ASCII character that is two tokens or more alone (o200k/unit-costs.ts): no token joins it to a letter. */
const DENSE = 0x80;
/** Weights are in thirds of a token, so that a run of digits counts a third of a token each (o200k: groups of three). */
const THIRDS = 3;

type Kind = 'upper' | 'lower' | 'digit' | 'space' | 'newline' | 'other' | 'nonAscii' | 'dense';

function kindOf(code: number): Kind {
  if (code === NON_ASCII) return 'nonAscii';
  if (code === DENSE) return 'dense';
  if (code >= 0x41 && code <= 0x5a) return 'upper';
  if (code >= 0x61 && code <= 0x7a) return 'lower';
  if (code >= 0x30 && code <= 0x39) return 'digit';
  if (code === 0x0a || code === 0x0d) return 'newline';
  if ((code >= 0x09 && code <= 0x0c) || code === 0x20) return 'space';
  return 'other';
}

/**
 * Thirds of a token the character `current` adds after `previous`. Only piece starts o200k's pattern
 * never joins count: a word after a space, digit or newline; lowercase to uppercase; a rare letter pair;
 * punctuation after anything but punctuation; a newline after a word or digit; a digit after anything
 * but a digit two thirds (a run of n digits is ⌈n/3⌉ pieces, counted (n + 1)/3). A word after
 * punctuation or a non-ASCII letter, or a repeated letter, counts nothing (`.bar` is one piece, `naïve` may be one token),
 * after a character that is two tokens alone (a combining mark, a jamo) a token.
 */
function weight(previous: number, current: number, encoding: Encoding): number {
  const before = kindOf(previous);
  const kind = kindOf(current);
  const letterBefore = before === 'upper' || before === 'lower' || before === 'nonAscii' || before === 'dense';
  if (kind === 'upper' || kind === 'lower') {
    if (before === 'other' || before === 'nonAscii') return 0;
    if (before !== 'upper' && before !== 'lower') return THIRDS;
    if (before === 'lower' && kind === 'upper') return THIRDS;
    // A repeated letter (`vvvv`) merges into long tokens however rare its pair.
    if (previous === current) return 0;
    return (encoding.asciiPairs[(previous << 7) | current] as number) < RARE_PAIR_TOKENS ? THIRDS : 0;
  }
  if (kind === 'digit') return before === 'digit' ? 1 : 2;
  if (kind === 'other') return before === 'other' ? 0 : THIRDS;
  if (kind === 'newline') return letterBefore || before === 'digit' || before === 'space' ? THIRDS : 0;
  return 0;
}

let shared: Uint8Array | undefined;

/** The weights of every pair of ASCII characters (and `DENSE` before one), at `previous << 7 | current`, built on first use. */
export function asciiFloorTable(): Uint8Array {
  if (shared) return shared;
  const encoding = loadEncoding();
  const table = new Uint8Array(129 * 128);
  for (let previous = 0; previous <= DENSE; previous++)
    for (let current = 0; current < 128; current++)
      table[(previous << 7) | current] = weight(previous, current, encoding);
  shared = table;
  return table;
}

/** The floor, in thirds of a token, of a text known to be all ASCII: the tightest loop, one lookup a character. */
export function asciiOnlyFloor(text: string, table: Uint8Array): number {
  let thirds = 0;
  let previous = 0x20;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    thirds += table[(previous << 7) | code] as number;
    previous = code;
  }
  return thirds;
}

/** Converts a floor in thirds to tokens. */
export function floorTokens(thirds: number): number {
  return thirds / THIRDS;
}

/** A non-ASCII character that costs `cost` tokens alone, as the previous one of the table. */
export function floorPrevious(cost: number): number {
  return cost > 1 ? DENSE : NON_ASCII;
}
