/** Byte-pair merging of a longer piece, taking the lowest pair from a heap: O(n log n) rather than O(n^2). */
import { MAX_PIECE_BYTES, rankOf, type Encoding } from './rank-tables.js';

/** Pieces longer than this many bytes are merged through a heap rather than by scanning for the lowest pair. */
export const HEAP_MERGE_BYTES = 24;

// Scratch space for the heap merge: neighbours by start offset (-1 for a part merged away), the rank of each
// part merged with the next, and a binary heap of rank * 256 + start (lowest rank first, leftmost on a tie).
const nextStart = new Int32Array(MAX_PIECE_BYTES + 1);
const previousStart = new Int32Array(MAX_PIECE_BYTES + 1);
const rankAtStart = new Float64Array(MAX_PIECE_BYTES + 1);
const heap = new Float64Array(MAX_PIECE_BYTES * 3 + 8);

function heapPush(size: number, key: number): number {
  let at = size;
  while (at > 0) {
    const parent = (at - 1) >> 1;
    const above = heap[parent] as number;
    if (above <= key) break;
    heap[at] = above;
    at = parent;
  }
  heap[at] = key;
  return size + 1;
}

/** Removes the smallest key (heap[0], read by the caller first); returns the new size. */
function heapPop(size: number): number {
  const last = heap[size - 1] as number;
  const length = size - 1;
  let at = 0;
  for (;;) {
    let child = 2 * at + 1;
    if (child >= length) break;
    if (child + 1 < length && (heap[child + 1] as number) < (heap[child] as number)) child++;
    if ((heap[child] as number) >= last) break;
    heap[at] = heap[child] as number;
    at = child;
  }
  heap[at] = last;
  return length;
}

/**
 * `bytePairCount` for longer pieces: the same merges in the same order, with the lowest pair taken from a
 * heap (stale entries skipped when popped) instead of a scan of every pair, so a 128-byte piece of rare
 * characters costs O(n log n) rather than O(n^2).
 */
export function heapPairCount(bytes: string, encoding: Encoding): number {
  const length = bytes.length;
  let size = 0;
  for (let i = 0; i < length; i++) {
    nextStart[i] = i + 1;
    previousStart[i] = i - 1;
    const rank = i + 1 < length ? rankOf(bytes, i, i + 2, encoding) : Number.POSITIVE_INFINITY;
    rankAtStart[i] = rank;
    if (rank !== Number.POSITIVE_INFINITY) size = heapPush(size, rank * 256 + i);
  }
  let parts = length;
  while (size > 0) {
    const key = heap[0] as number;
    size = heapPop(size);
    const start = key % 256;
    const rank = (key - start) / 256;
    if (nextStart[start] === -1 || rankAtStart[start] !== rank) continue; // stale
    // Merge the part at `start` with the next one.
    const merged = nextStart[start] as number;
    const after = nextStart[merged] as number;
    nextStart[start] = after;
    nextStart[merged] = -1;
    if (after < length) previousStart[after] = start;
    parts--;
    const own = after < length ? rankOf(bytes, start, nextStart[after] as number, encoding) : Number.POSITIVE_INFINITY;
    rankAtStart[start] = own;
    if (own !== Number.POSITIVE_INFINITY) size = heapPush(size, own * 256 + start);
    const before = previousStart[start] as number;
    if (before >= 0) {
      const left = rankOf(bytes, before, after, encoding);
      rankAtStart[before] = left;
      if (left !== Number.POSITIVE_INFINITY) size = heapPush(size, left * 256 + before);
    }
  }
  return parts;
}
