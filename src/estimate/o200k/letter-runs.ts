/** Runs of CJK, Hangul and kana letters, counted per letter from tables rather than merged byte by byte. */
import { isToken, type Encoding } from './rank-tables.js';
import { packedLookup } from './packed-table.js';
import { utf8Binary } from './utf8.js';

/** Tokens of each plain letter (or run prefix) on its own, by UTF-16 unit; 0 until first needed. */
const letterTokenCounts = new Uint8Array(0x10000);

export function letterTokens(code: number, encoding: Encoding): number {
  let tokens = letterTokenCounts[code] as number;
  if (tokens === 0) {
    // Byte-pair merging of three bytes, worked out: one token when all three are one (checked first, as
    // for any piece), else two when either pair is one, else three. No string is made.
    // (The callers pass ASCII, one token, or characters of three UTF-8 bytes.)
    const b0 = 0xe0 | (code >> 12);
    const b1 = 0x80 | ((code >> 6) & 0x3f);
    const b2 = 0x80 | (code & 0x3f);
    if (code < 0x80 || packedLookup(encoding.packed, b0 | (b1 << 8) | (b2 << 16), 3 << 16) >= 0) tokens = 1;
    else
      tokens =
        (encoding.pairs[(b0 << 8) | b1] as number) >= 0 || (encoding.pairs[(b1 << 8) | b2] as number) >= 0 ? 2 : 3;
    letterTokenCounts[code] = tokens;
  }
  return tokens;
}

/** True when two plain letters (three UTF-8 bytes each) together are one token. */
function isLetterPairToken(first: number, second: number, encoding: Encoding): boolean {
  // Bytes 0-3 in `low`, bytes 4-5 and the length in `high`, as the packed table keys them.
  const low =
    0xe0 |
    (first >> 12) |
    ((0x80 | ((first >> 6) & 0x3f)) << 8) |
    ((0x80 | (first & 0x3f)) << 16) |
    ((0xe0 | (second >> 12)) << 24);
  const high = 0x80 | ((second >> 6) & 0x3f) | ((0x80 | (second & 0x3f)) << 8) | (6 << 16);
  return packedLookup(encoding.packed, low, high) >= 0;
}

/**
 * Tokens of a run of plain letters, by character: each letter's own count, and adjacent one-token letters
 * that together are one token (two, three or four of them, the longest first, left to right) count once.
 * Byte-pair merging over such a run is the slowest counting there is (every piece new, three bytes per
 * character, most lookups missing the cache; see docs/performance.md); this reads a table per letter instead. It can
 * differ from o200k's merge where tokens overlap; the property tests in tokenizer.test.ts bound it.
 */
export function plainRunCount(text: string, from: number, to: number, encoding: Encoding): number {
  let tokens = 0;
  let i = from;
  while (i < to) {
    const code = text.charCodeAt(i);
    const own = letterTokens(code, encoding);
    if (own === 1 && i + 1 < to) {
      const next = text.charCodeAt(i + 1);
      if (letterTokens(next, encoding) === 1 && isLetterPairToken(code, next, encoding)) {
        // Three or four letters can be one token too ("服务器"); such tokens start with a two-letter one.
        let width = 2;
        while (width < 4 && i + width < to && isToken(utf8Binary(text.slice(i, i + width + 1)), encoding)) width++;
        tokens++;
        i += width;
        continue;
      }
    }
    tokens += own;
    i++;
  }
  return tokens;
}
