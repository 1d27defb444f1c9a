/**
 * Characters of a text by how densely o200k tokenizes them, so a sampled estimate can charge each
 * class at its own rate (estimate/tokenizer.ts): dense text (CJK, Hangul, kana: about one token per
 * character) placed only between the samples of a long text otherwise took the rate of the ASCII
 * prose at the sample points, about a quarter token per character. Dense ASCII (base64, hex, digits)
 * has no class of its own: the same pass sums a floor under its count (o200k/ascii-floor.ts).
 */
import { Buffer } from 'node:buffer';
import { asciiFloorTable, asciiOnlyFloor, floorPrevious, floorTokens } from './o200k/ascii-floor.js';
import { unitCosts } from './o200k/unit-costs.js';

/** Counts by class, in UTF-16 units, by the UTF-8 width o200k's byte-level merges start from. */
interface CharClasses {
  /** One byte: U+0000-U+007F. */
  ascii: number;
  /** Two bytes, one token alone: U+0080-U+07FF (Latin with accents, Greek, Cyrillic, Hebrew, Arabic). */
  narrow: number;
  /** Three bytes, one token alone, or a surrogate half: CJK, Hangul, kana, Thai, Indic scripts, symbols, emoji. */
  wide: number;
  /** Two or three bytes that are two tokens or more alone (o200k/unit-costs.ts): Hangul jamo, combining marks, rare Han. */
  dense: number;
}

/** The classes of a whole text, with what its units cost at the least. */
interface TextClasses extends CharClasses {
  /** Tokens of the `dense` units, each alone. */
  denseCost: number;
  /** A floor under the tokens of its ASCII (o200k/ascii-floor.ts). */
  asciiFloor: number;
}

/**
 * Prior o200k tokens per UTF-16 unit of each class, by which the samples' tokens are shared among their
 * classes. Measured with js-tiktoken (docs/design.md, "Measuring"): ASCII prose 0.22, logs 0.41;
 * Cyrillic 0.24, Arabic 0.25; random CJK 0.98, Japanese 0.57, Korean 0.38, Thai 0.40, emoji 0.96;
 * Hangul jamo 2.1-3, combining marks 1.9.
 */
const CLASS_RATES: Readonly<CharClasses> = { ascii: 0.3, narrow: 0.5, wide: 1, dense: 2 };

/**
 * The least a class the samples under-represent is charged per UTF-16 unit: one token for any non-ASCII
 * unit (a two-byte letter o200k has no merge for, a combining mark, is one token or more), the prior for
 * ASCII; a dense unit its own cost (`denseCost`).
 */
const UNSEEN_RATES: Readonly<Omit<CharClasses, 'dense'>> = { ascii: 0.3, narrow: 1, wide: 1 };

const CLASSES = ['ascii', 'narrow', 'wide', 'dense'] as const;

/** Adds the classes of `text[from, to)` to `into`. */
export function countClasses(text: string, from: number, to: number, into: CharClasses): void {
  const costs = unitCosts();
  let nonAscii = 0;
  let narrow = 0;
  let dense = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    nonAscii++;
    if ((costs[c] as number) > 1) dense++;
    else if (c < 0x800) narrow++;
  }
  into.ascii += to - from - nonAscii;
  into.narrow += narrow;
  into.dense += dense;
  into.wide += nonAscii - narrow - dense;
}

/**
 * The classes of the whole text and its ASCII floor, in one pass. An ASCII text (logs, JSON, code: the
 * usual long text) is told by its UTF-8 length, natively, then walked for its floor with one table lookup
 * a character; any other is walked once for both (script and figures: docs/performance.md, "Dense text
 * between the samples").
 */
export function classesOf(text: string): TextClasses {
  const floorTable = asciiFloorTable();
  if (Buffer.byteLength(text, 'utf8') === text.length)
    return {
      ascii: text.length,
      narrow: 0,
      wide: 0,
      dense: 0,
      denseCost: 0,
      asciiFloor: floorTokens(asciiOnlyFloor(text, floorTable)),
    };
  const costs = unitCosts();
  let thirds = 0;
  let previous = 0x20;
  let nonAscii = 0;
  let narrow = 0;
  let dense = 0;
  let denseCost = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      thirds += floorTable[(previous << 7) | c] as number;
      previous = c;
      continue;
    }
    nonAscii++;
    const cost = costs[c] as number;
    previous = floorPrevious(cost);
    if (cost > 1) {
      dense++;
      denseCost += cost;
    } else if (c < 0x800) narrow++;
  }
  return {
    ascii: text.length - nonAscii,
    narrow,
    wide: nonAscii - narrow - dense,
    dense,
    denseCost,
    asciiFloor: floorTokens(thirds),
  };
}

/**
 * Tokens of a text with classes `text`, from samples with classes `sampled` that counted `tokens`. The
 * samples' tokens are shared among their classes by the prior rates (one scale for all); a class the
 * samples saw at half its share of the text or more is charged scale × its prior, which is the plain
 * extrapolation (tokens × text length / sampled length) when the samples mirror the text; a class they
 * saw less, or not at all, is charged at least its `UNSEEN_RATES` (a dense unit its own cost), whatever
 * the samples' scale. Each charge takes the sampled estimate's safety `margin`; the ASCII is then
 * charged at least its floor, wherever it lies (without the margin: the floor of uniform base64 is
 * already 1.1 times its count).
 */
export function extrapolateByClass(tokens: number, sampled: CharClasses, text: TextClasses, margin: number): number {
  const sampledTotal = sampled.ascii + sampled.narrow + sampled.wide + sampled.dense;
  const textTotal = text.ascii + text.narrow + text.wide + text.dense;
  let expected = 0;
  for (const name of CLASSES) expected += sampled[name] * CLASS_RATES[name];
  const scale = expected > 0 ? tokens / expected : 1;
  let estimate = 0;
  for (const name of CLASSES) {
    if (text[name] === 0) continue;
    const represented = sampled[name] * textTotal * 2 >= text[name] * sampledTotal;
    const charge = text[name] * scale * CLASS_RATES[name];
    const unseen = name === 'dense' ? text.denseCost : text[name] * UNSEEN_RATES[name];
    const least = name === 'ascii' ? text.asciiFloor : 0;
    estimate += Math.max((represented ? charge : Math.max(charge, unseen)) * margin, least);
  }
  return estimate;
}
