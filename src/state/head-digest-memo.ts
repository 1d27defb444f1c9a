/**
 * The covered head's digest (covered-contents.ts) kept for one session and agent. A mask's record
 * digests the sorted fingerprints of every covered content but the tail (~1,600 on the masked-history
 * benchmark) on every call that masks, and sorting them anew was most of that (about 0.5 ms); between two
 * maskings the head only grows at its end. The memo keeps the last head in order and its sorted text: a head
 * that starts with it has only its new fingerprints put in place (binary search over the text's lines), any
 * other is sorted anew. Whether it starts with it is compared print by print, unless the measure cache's
 * snapshots since vouch for those positions (`follow`): read after ADK copied the whole history, each old
 * position compared costs a cache miss. The digest is of the same bytes either way: stored records still match.
 */
import { createHash } from 'node:crypto';

/** SHA-256 (base64) of sorted fingerprints, each followed by a newline: one update of the joined text. */
export function digestOfSorted(sorted: readonly string[]): string {
  return digestOfText(textOf(sorted));
}

/** The fingerprints as digested: each followed by a newline. */
const textOf = (sorted: readonly string[]): string => (sorted.length > 0 ? `${sorted.join('\n')}\n` : '');

/** One update of the whole text: each update crosses into C++. */
const digestOfText = (text: string): string => createHash('sha256').update(text).digest('base64');

/** More new fingerprints than this are sorted with the rest rather than put in place one by one. */
const MAX_INSERTS = 64;

/**
 * `text` (lines in ascending order, as `Array.prototype.sort` orders strings, each ending in a newline)
 * with the line `print` put at its place: the first line not below it is found by halving the text.
 */
function withLine(text: string, print: string): string {
  let low = 0;
  let high = text.length;
  while (low < high) {
    // The line around the middle: it starts at or after `low`, which is a line's start.
    const middle = (low + high) >>> 1;
    // (`lastIndexOf` reads a negative position as 0, where an empty line may end.)
    const start = middle === 0 ? 0 : text.lastIndexOf('\n', middle - 1) + 1;
    const end = text.indexOf('\n', start);
    if (text.slice(start, end) < print) low = end + 1;
    else high = start;
  }
  return `${text.slice(0, low)}${print}\n${text.slice(low)}`;
}

/** What the measure cache says of its snapshot (estimate/content-measure-cache.ts: `MeasureChange`). */
interface SnapshotChange {
  readonly generation: number;
  readonly previous: number | undefined;
  readonly unchangedBefore: number;
}

export class HeadDigestMemo {
  /** The last head digested, in order (the caller's fresh list, never changed after), and its sorted text. */
  private prints: string[] = [];
  private text = '';
  private digest = digestOfText('');
  /** The measure snapshot whose leading fingerprints `prints` still are, as far as the snapshots since say. */
  private vouchedAt: number | undefined;

  /** Notes a call's measure snapshot: the head stays vouched for while each snapshot keeps its positions unchanged. */
  follow(change: SnapshotChange | undefined): void {
    const kept =
      change !== undefined &&
      this.vouchedAt !== undefined &&
      change.previous === this.vouchedAt &&
      change.unchangedBefore >= this.prints.length;
    this.vouchedAt = kept ? change.generation : undefined;
  }

  /**
   * The digest of `head`'s fingerprints sorted: what `digestOfSorted(head.slice().sort())` gives. The memo
   * keeps `head` itself: no copy of the whole head. `generation`: the measure snapshot `head` was read from.
   */
  digestOf(head: string[], generation?: number): string {
    const known = this.prints;
    let same = known.length <= head.length;
    const vouched = same && generation !== undefined && generation === this.vouchedAt;
    for (let i = 0; same && !vouched && i < known.length; i++) same = known[i] === head[i];
    this.vouchedAt = generation;
    if (same && known.length === head.length) return this.digest;
    const added = head.slice(known.length);
    if (!same || added.length > MAX_INSERTS || added.some((print) => print.includes('\n')))
      this.text = textOf(head.slice().sort());
    else for (const print of added) this.text = withLine(this.text, print);
    this.prints = head;
    this.digest = digestOfText(this.text);
    return this.digest;
  }
}
