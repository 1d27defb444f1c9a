/** Byte-pair merging of one piece over o200k's ranks, counting the parts left rather than building tokens. */
import { heapPairCount, HEAP_MERGE_BYTES } from './heap-merge.js';
import { isToken, MAX_PIECE_BYTES, rankOf, type Encoding } from './rank-tables.js';

// Scratch space for one merge (pieces are at most MAX_PIECE_BYTES long): no allocation per piece.
const starts = new Int32Array(MAX_PIECE_BYTES + 1);
const pairRanks = new Float64Array(MAX_PIECE_BYTES);

/**
 * Tokens of one piece (a binary string of at most `MAX_PIECE_BYTES` bytes): the
 * number of parts left once byte-pair merging stops. The lowest-ranked adjacent
 * pair is merged first, the leftmost on a tie, exactly as js-tiktoken does; only
 * the two pairs next to a merge are looked up again.
 */
export function bytePairCount(bytes: string, encoding: Encoding): number {
  const length = bytes.length;
  if (length <= 1) return length;
  if (length === 2) return encoding.pairs[(bytes.charCodeAt(0) << 8) | bytes.charCodeAt(1)]! >= 0 ? 1 : 2;
  if (isToken(bytes, encoding)) return 1;
  if (length > HEAP_MERGE_BYTES) return heapPairCount(bytes, encoding);
  return scanPairCount(bytes, 0, length, encoding);
}

/**
 * The merge of `bytes[from, to)` (at most `HEAP_MERGE_BYTES` long, not itself a token) by scanning for the
 * lowest pair, in place: a short ASCII piece is merged inside its text, without a copy.
 */
export function scanPairCount(bytes: string, from: number, to: number, encoding: Encoding): number {
  const length = to - from;
  // starts[i] is where part i begins; pairRanks[i] is the rank of part i merged with part i + 1.
  for (let i = 0; i <= length; i++) starts[i] = from + i;
  for (let i = 0; i < length - 1; i++) pairRanks[i] = rankOf(bytes, from + i, from + i + 2, encoding);
  let parts = length;
  while (parts > 1) {
    let best = Number.POSITIVE_INFINITY;
    let at = -1;
    for (let i = 0; i < parts - 1; i++) {
      const rank = pairRanks[i] as number;
      if (rank < best) {
        best = rank;
        at = i;
      }
    }
    if (at < 0) break;
    // Merge parts `at` and `at + 1`: drop the boundary between them (a plain loop: at most 24 entries,
    // where a copyWithin call costs more than the copy).
    for (let i = at + 1; i < parts; i++) starts[i] = starts[i + 1] as number;
    for (let i = at + 1; i < parts - 1; i++) pairRanks[i] = pairRanks[i + 1] as number;
    parts--;
    pairRanks[at] =
      at + 1 < parts
        ? rankOf(bytes, starts[at] as number, starts[at + 2] as number, encoding)
        : Number.POSITIVE_INFINITY;
    if (at > 0) pairRanks[at - 1] = rankOf(bytes, starts[at - 1] as number, starts[at + 1] as number, encoding);
  }
  return parts;
}
