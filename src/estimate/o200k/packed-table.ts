/**
 * The packed rank table: every o200k token of up to `PACKED_BYTES` bytes, keyed by its bytes packed into
 * two integers, so the most frequent rank lookups make no string and touch no `Map`.
 */

/** Tokens up to this many bytes go in the packed table. */
export const PACKED_BYTES = 6;
const PACKED_BITS = 18;

/**
 * Open addressing (linear probing) in one typed array of [low, high, rank] slots, so a probe reads one
 * cache line: `low` is bytes 0-3 of the token, `high` bytes 4-5 plus the length (never 0 in a used slot).
 * A 128 KB bit filter in front answers most lookups of candidates that are not tokens (most of the
 * lookups in CJK text) without touching the 3 MB table.
 */
export interface PackedTable {
  readonly slots: Int32Array;
  readonly filter: Uint32Array;
}

const FILTER_BITS = 20;

function filterBit(low: number, high: number): number {
  return Math.imul(low ^ Math.imul(high, 0x27d4eb2d), 0x165667b1) >>> (32 - FILTER_BITS);
}

function packedSlot(low: number, high: number): number {
  return (Math.imul(low, 0x9e3779b1) ^ Math.imul(high ^ (low >>> 15), 0x85ebca6b)) >>> (32 - PACKED_BITS);
}

export function packedInsert(table: PackedTable, bytes: readonly number[], rank: number): void {
  let low = 0;
  let high = bytes.length << 16;
  for (let i = 0; i < bytes.length; i++) {
    if (i < 4) low |= (bytes[i] as number) << (8 * i);
    else high |= (bytes[i] as number) << (8 * (i - 4));
  }
  const mask = (1 << PACKED_BITS) - 1;
  const slots = table.slots;
  let slot = packedSlot(low, high);
  while (slots[slot * 3 + 1] !== 0 && !(slots[slot * 3] === low && slots[slot * 3 + 1] === high))
    slot = (slot + 1) & mask;
  slots[slot * 3] = low;
  slots[slot * 3 + 1] = high;
  slots[slot * 3 + 2] = rank;
  const bit = filterBit(low, high);
  table.filter[bit >>> 5]! |= 1 << (bit & 31);
}

/** Rank of the token `bytes[from, to)` (at most PACKED_BYTES long), or -1. */
export function packedRank(table: PackedTable, bytes: string, from: number, to: number): number {
  let low = 0;
  let high = (to - from) << 16;
  for (let i = from; i < to; i++) {
    const shift = 8 * (i - from);
    if (shift < 32) low |= bytes.charCodeAt(i) << shift;
    else high |= bytes.charCodeAt(i) << (shift - 32);
  }
  return packedLookup(table, low, high);
}

/** Rank of the token packed as `low` (bytes 0-3) and `high` (bytes 4-5 and the length << 16), or -1. */
export function packedLookup(table: PackedTable, low: number, high: number): number {
  const bit = filterBit(low, high);
  if (((table.filter[bit >>> 5] as number) & (1 << (bit & 31))) === 0) return -1;
  const slots = table.slots;
  let at = packedSlot(low, high) * 3;
  for (;;) {
    const stored = slots[at + 1] as number;
    if (stored === 0) return -1;
    if (stored === high && slots[at] === low) return slots[at + 2] as number;
    at += 3;
    if (at >= slots.length) at = 0;
  }
}

/** An empty table, sized for o200k's tokens of up to `PACKED_BYTES` bytes. */
export function createPackedTable(): PackedTable {
  return { slots: new Int32Array(3 << PACKED_BITS), filter: new Uint32Array(1 << (FILTER_BITS - 5)) };
}
