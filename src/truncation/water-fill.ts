/**
 * Water-filling: a room shared out among sizes so that the small ones are whole and the large ones
 * share what is left equally (tool-output truncation's fair shares).
 */

/** Water-filling: smallest first, each takes at most an equal part of what is left; shares in input order. */
export function waterFill(sizes: readonly number[], room: number): number[] {
  let remaining = room;
  const shares = new Array<number>(sizes.length).fill(0);
  const order = sizes.map((size, index) => ({ index, size })).sort((a, b) => a.size - b.size);
  let left = order.length;
  for (const { index, size } of order) {
    const share = Math.min(size, Math.max(0, Math.floor(remaining / left)));
    shares[index] = share;
    remaining -= share;
    left -= 1;
  }
  return shares;
}
