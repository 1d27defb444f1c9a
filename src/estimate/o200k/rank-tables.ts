/**
 * o200k's ranks, read from js-tiktoken's rank file into typed-array tables (a direct table for byte pairs,
 * the packed table for tokens of up to 6 bytes, a `Map` for longer ones), loaded once on first use, and
 * the rank lookups byte-pair merging makes. Why tables rather than js-tiktoken's `Tiktoken`: see
 * docs/performance.md ("A tokenizer built for counting").
 */
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { createPackedTable, packedInsert, packedRank, PACKED_BYTES, type PackedTable } from './packed-table.js';

/** Pieces longer than this many UTF-8 bytes are counted in chunks (o200k's longest token is 128 bytes). */
export const MAX_PIECE_BYTES = 128;

export interface Encoding {
  /** Rank of every token longer than `PACKED_BYTES`, by its bytes as a binary (one char per byte) string. */
  readonly ranks: Map<string, number>;
  /** Rank of every two-byte token at `first << 8 | second`, -1 when the pair is not a token (the most frequent lookup). */
  readonly pairs: Int32Array;
  /** Tokens of 1 to `PACKED_BYTES` bytes in an open-addressing table keyed by their packed bytes (no string, no Map). */
  readonly packed: PackedTable;
  /** Length in bytes of the longest token. */
  readonly maxTokenBytes: number;
  /** o200k's pre-tokenizer, sticky (it matches at every position), without capture groups. */
  readonly pattern: RegExp;
  /** How many tokens hold each pair of adjacent ASCII bytes, at `first << 7 | second` (at most 65,535): rare pairs mark random letters. */
  readonly asciiPairs: Uint16Array;
}

let shared: Encoding | undefined;

const BASE64 = (() => {
  const table = new Int8Array(128).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  return table;
})();

/**
 * Reads js-tiktoken's rank file: lines of `<marker> <first rank> <base64 token> <base64 token>...`,
 * ranks consecutive from the first (the format js-tiktoken's `Tiktoken` constructor parses).
 */
export function loadEncoding(): Encoding {
  if (shared) return shared;
  const source = o200kBase.bpe_ranks;
  const ranks = new Map<string, number>();
  const pairs = new Int32Array(65_536).fill(-1);
  const packed = createPackedTable();
  const asciiPairs = new Uint16Array(128 * 128);
  const bytes: number[] = [];
  let maxTokenBytes = 1;
  let position = 0;
  while (position < source.length) {
    let end = source.indexOf('\n', position);
    if (end < 0) end = source.length;
    const markerEnd = source.indexOf(' ', position);
    if (markerEnd > position && markerEnd < end) {
      let cursor = source.indexOf(' ', markerEnd + 1);
      if (cursor < 0 || cursor > end) cursor = end;
      let rank = Number.parseInt(source.slice(markerEnd + 1, cursor), 10);
      cursor++;
      while (cursor < end) {
        bytes.length = 0;
        let accumulator = 0;
        let bits = 0;
        for (; cursor < end; cursor++) {
          const code = source.charCodeAt(cursor);
          if (code === 0x20) break;
          const value = BASE64[code] ?? -1;
          if (value < 0) continue; // '=' padding
          accumulator = (accumulator << 6) | value;
          bits += 6;
          if (bits >= 8) {
            bits -= 8;
            bytes.push((accumulator >> bits) & 0xff);
          }
        }
        cursor++;
        if (bytes.length === 0) continue;
        if (bytes.length === 2) pairs[((bytes[0] as number) << 8) | (bytes[1] as number)] = rank;
        if (bytes.length <= PACKED_BYTES) packedInsert(packed, bytes, rank++);
        else ranks.set(String.fromCharCode.apply(null, bytes), rank++);
        if (bytes.length > maxTokenBytes) maxTokenBytes = bytes.length;
        countAsciiPairs(bytes, asciiPairs);
      }
    }
    position = end + 1;
  }
  // Capture groups are not needed for splitting; non-capturing ones make each match cheaper.
  const pattern = new RegExp(o200kBase.pat_str.replace(/(^|[^\\])\((?!\?)/g, '$1(?:'), 'uy');
  shared = { ranks, pairs, packed, maxTokenBytes, pattern, asciiPairs };
  return shared;
}

/** Adds the adjacent ASCII byte pairs of one token to `into`. */
function countAsciiPairs(bytes: readonly number[], into: Uint16Array): void {
  for (let i = 1; i < bytes.length; i++) {
    const first = bytes[i - 1] as number;
    const second = bytes[i] as number;
    const index = (first << 7) | second;
    const count = into[index] as number;
    if (first < 0x80 && second < 0x80 && count < 0xffff) into[index] = count + 1;
  }
}

export function rankOf(bytes: string, from: number, to: number, encoding: Encoding): number {
  const length = to - from;
  if (length === 2) {
    const rank = encoding.pairs[(bytes.charCodeAt(from) << 8) | bytes.charCodeAt(from + 1)] as number;
    return rank < 0 ? Number.POSITIVE_INFINITY : rank;
  }
  if (length <= PACKED_BYTES) {
    const rank = packedRank(encoding.packed, bytes, from, to);
    return rank < 0 ? Number.POSITIVE_INFINITY : rank;
  }
  if (length > encoding.maxTokenBytes) return Number.POSITIVE_INFINITY;
  return encoding.ranks.get(bytes.slice(from, to)) ?? Number.POSITIVE_INFINITY;
}

/** True when all of `bytes` is one token. */
export function isToken(bytes: string, encoding: Encoding): boolean {
  return bytes.length <= PACKED_BYTES
    ? packedRank(encoding.packed, bytes, 0, bytes.length) >= 0
    : encoding.ranks.has(bytes);
}
