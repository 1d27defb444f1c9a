/**
 * Which contents a watermark covers, kept independent of their order.
 *
 * ADK's `DatabaseSessionService` reloads events sorted by timestamp, and ADK
 * stamps a model response when its step starts, so the interleaved events of a
 * `ParallelAgent`'s branches come back on the next turn in another order than
 * they were appended (and seen by the guard) in the turn that made a summary.
 * The watermark's anchor then sits elsewhere, although the contents it covers
 * are all still there. This record lets a summary (or a mask) find them again:
 * the SHA-256 of the sorted fingerprints of the covered contents before the
 * last `tail.length`, and the fingerprints of those last ones in order. A
 * reorder inside the covered range keeps the digest; a reorder across the
 * watermark leaves a shorter prefix whose contents are all covered, and only
 * that prefix is ever stripped (covered contents that moved past it are sent
 * again verbatim: a repeat is safe, a loss is not).
 */
import { isPlainObject } from '../config/plain-object.js';
import { digestOfSorted, type HeadDigestMemo } from './head-digest-memo.js';

/** Fingerprint of the live content at an index (see watermark.ts). */
type FingerprintAt = (index: number) => string | undefined;

/** How many of the last covered contents are kept by fingerprint: more than a parallel run's interleaved events. */
export const COVERED_TAIL = 24;

/** The longest fingerprint and tail read back (the guard's are about a dozen characters and `COVERED_TAIL`). */
const MAX_FINGERPRINT_CHARS = 64;
const MAX_TAIL = 256;

export interface CoveredContents {
  /** SHA-256 (base64) of the sorted fingerprints of contents `[0, covered - tail.length)`. */
  readonly digest: string;
  /** Fingerprints of contents `[covered - tail.length, covered)`, in order. */
  readonly tail: readonly string[];
}

function digestOf(prints: string[]): string {
  return digestOfSorted(prints.sort());
}

/**
 * The fingerprints of positions `[from, to)`, `''` where there is none: read one by one through `prints`, or
 * sliced from the list itself (a mask's record reads the measured fingerprints: one copy, not a call and a push each).
 */
function printsIn(prints: FingerprintAt | readonly (string | undefined)[], from: number, to: number): string[] {
  if (typeof prints === 'function') {
    const out: string[] = [];
    for (let index = from; index < to; index++) out.push(prints(index) ?? '');
    return out;
  }
  const out = prints.slice(from, to);
  for (let i = 0; i < to - from; i++) out[i] ??= '';
  return out as string[];
}

/**
 * The record of contents `[0, covered)` as they are now, from their fingerprints (a function, or the list of
 * them). `memo`: the session and agent's last head, when the caller keeps one (a mask's record on every call
 * that masks): only the fingerprints added since are sorted. `generation`: the measure cache's snapshot the
 * list is (head-digest-memo.ts: `follow`).
 */
export function coveredContentsAt(
  prints: FingerprintAt | readonly (string | undefined)[],
  covered: number,
  memo?: HeadDigestMemo,
  generation?: number,
): CoveredContents {
  const split = Math.max(0, covered - COVERED_TAIL);
  const head = printsIn(prints, 0, split);
  const tail = printsIn(prints, split, covered);
  return { digest: memo ? memo.digestOf(head, generation) : digestOf(head), tail };
}

/**
 * Whether every content of `prints` is covered: all of the digested head, and the rest from the tail. The head
 * has `headSize` contents, so `prints.length - headSize` of them come from the tail; they are taken from the end,
 * where the tail's contents are, so that a head content with the fingerprint of a tail content missing from the
 * prefix stays in the head (an identical tool call in both, another turn's content inserted before the watermark).
 */
function allCovered(prints: readonly string[], covered: CoveredContents, headSize: number): boolean {
  let fromTail = prints.length - headSize;
  if (fromTail < 0) return false;
  const tailLeft = new Map<string, number>();
  for (const print of covered.tail) tailLeft.set(print, (tailLeft.get(print) ?? 0) + 1);
  const head: string[] = [];
  for (let index = prints.length - 1; index >= 0; index--) {
    const print = prints[index] as string;
    const left = fromTail > 0 ? (tailLeft.get(print) ?? 0) : 0;
    if (left > 0) {
      tailLeft.set(print, left - 1);
      fromTail--;
    } else head.push(print);
  }
  return digestOf(head) === covered.digest;
}

/**
 * The longest prefix of the live contents made only of covered contents, at
 * least all of the digested head and at most `covered` long: `covered` itself
 * when the covered contents were only reordered among themselves. `undefined`
 * when there is none (contents were replaced, or a reorder reaches further
 * than the tail). Costs a fingerprint per covered content and a digest per
 * prefix tried; run only when the anchor is not at its place.
 */
export function coveredPrefix(
  fingerprintAt: FingerprintAt,
  length: number,
  covered: number,
  contents: CoveredContents,
): number | undefined {
  const longest = Math.min(covered, length);
  const shortest = Math.max(1, covered - contents.tail.length);
  if (longest < shortest) return undefined;
  const prints: string[] = [];
  for (let index = 0; index < longest; index++) prints.push(fingerprintAt(index) ?? '');
  const headSize = Math.max(0, covered - contents.tail.length);
  for (let end = longest; end >= shortest; end--) if (allCovered(prints.slice(0, end), contents, headSize)) return end;
  return undefined;
}

/**
 * Decodes the record stored with a watermark: `undefined` when absent (a record
 * written before it existed: located by its anchor alone, as then), `null` when
 * present but unusable (the caller drops the whole record rather than guess).
 */
export function decodeCoveredContents(value: unknown, covered: number): CoveredContents | undefined | null {
  if (value === undefined || value === null) return undefined;
  if (!isPlainObject(value)) return null;
  const { digest, tail } = value;
  if (typeof digest !== 'string' || !Array.isArray(tail) || tail.length > Math.min(covered, MAX_TAIL)) return null;
  if (!tail.every((print) => typeof print === 'string' && print.length <= MAX_FINGERPRINT_CHARS)) return null;
  return { digest, tail: tail as string[] };
}
