/**
 * The covered head's digest (covered-contents.ts) kept for one session and agent. A mask's record
 * digests the sorted fingerprints of every covered content but the tail (~1,600 on the masked-history
 * benchmark) on every call that masks, and sorting them anew was most of that (about 0.5 ms); between two
 * maskings the head only grows at its end. The memo keeps the last head in order and sorted: a head that
 * starts with it has only its new fingerprints put in place (binary search), any other is sorted anew.
 * The digest is of the same bytes either way: stored records still match.
 */
import { createHash } from 'node:crypto';

/** SHA-256 (base64) of sorted fingerprints, each followed by a newline: one update of the joined text. */
export function digestOfSorted(sorted: readonly string[]): string {
  // One update, the same bytes as one per fingerprint: each update crosses into C++.
  return createHash('sha256')
    .update(sorted.length > 0 ? `${sorted.join('\n')}\n` : '')
    .digest('base64');
}

/** More new fingerprints than this are sorted with the rest rather than put in place one by one. */
const MAX_INSERTS = 64;

/** Puts `print` into `sorted` (ascending, as `Array.prototype.sort` orders strings) at its place. */
function insertSorted(sorted: string[], print: string): void {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as string) < print) low = middle + 1;
    else high = middle;
  }
  sorted.splice(low, 0, print);
}

export class HeadDigestMemo {
  /** The last head digested, in order, and the same fingerprints sorted; the memo's own arrays. */
  private prints: string[] = [];
  private sorted: string[] = [];
  private digest = digestOfSorted([]);

  /**
   * The digest of `head`'s fingerprints sorted: what `digestOfSorted(head.slice().sort())` gives. The memo
   * keeps `head` itself (the caller's fresh list, never changed after): no copy of the whole head.
   */
  digestOf(head: string[]): string {
    const known = this.prints;
    let same = known.length <= head.length;
    for (let i = 0; same && i < known.length; i++) same = known[i] === head[i];
    if (same && known.length === head.length) return this.digest;
    if (!same || head.length - known.length > MAX_INSERTS) this.sorted = head.slice().sort();
    else for (let i = known.length; i < head.length; i++) insertSorted(this.sorted, head[i] as string);
    this.prints = head;
    this.digest = digestOfSorted(this.sorted);
    return this.digest;
  }
}
