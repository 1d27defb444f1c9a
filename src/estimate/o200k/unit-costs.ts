/**
 * What each UTF-16 unit costs alone in o200k: 1 when its character is one token, else the tokens of its
 * two or three UTF-8 bytes (a pair of them merged or none). Hangul jamo, most combining marks and rare
 * Han characters are 2 or 3 tokens each, where common letters of the same UTF-8 width are 1 or less:
 * a sampled estimate tells them apart by this cost (estimate/char-classes.ts). Surrogate halves are 1.
 */
import { isToken, loadEncoding, type Encoding } from './rank-tables.js';

let shared: Uint8Array | undefined;

function costOf(code: number, encoding: Encoding): number {
  if (code < 0x80 || (code >= 0xd800 && code <= 0xdfff)) return 1;
  const bytes =
    code < 0x800
      ? [0xc0 | (code >> 6), 0x80 | (code & 0x3f)]
      : [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)];
  if (isToken(String.fromCharCode(...bytes), encoding)) return 1;
  if (bytes.length === 2) return 2;
  const pair = (at: number): boolean =>
    (encoding.pairs[((bytes[at] as number) << 8) | (bytes[at + 1] as number)] as number) >= 0;
  return pair(0) || pair(1) ? 2 : 3;
}

/** The cost of every UTF-16 unit, built on first use (65,536 lookups). */
export function unitCosts(): Uint8Array {
  if (shared) return shared;
  const encoding = loadEncoding();
  const table = new Uint8Array(65_536);
  for (let code = 0; code < 65_536; code++) table[code] = costOf(code, encoding);
  shared = table;
  return table;
}
