/**
 * Water-filling: a room shared out among sizes so that the small ones are whole and the large ones
 * share what is left equally (tool-output truncation's fair shares).
 */

/**
 * Water-filling, smallest first: each part is offered at most an equal part of what is left and
 * `take` says how much it really used (a cut often ends short of its share, at a line break or
 * because a nested item kept less), so what one part leaves goes to the larger parts after it.
 */
export function waterFill<T>(
  parts: readonly T[],
  sizeOf: (part: T) => number,
  room: number,
  take: (part: T, share: number) => number,
): void {
  let remaining = room;
  const order = parts.map((part) => ({ part, size: sizeOf(part) })).sort((a, b) => a.size - b.size);
  let left = order.length;
  for (const { part, size } of order) {
    const share = Math.min(size, Math.max(0, Math.floor(remaining / left)));
    remaining -= take(part, share);
    left -= 1;
  }
}
