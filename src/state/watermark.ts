/**
 * The watermark: how many leading request contents a summary covers, anchored
 * so that a change in the history is detected instead of silently stripping
 * the wrong contents.
 *
 * ADK rebuilds `llmRequest.contents` from the immutable event log on every
 * step, so the same history yields the same leading contents. The anchor is the
 * fingerprint of the two contents just before the watermark. If they no longer
 * sit at `covered - 2 .. covered - 1` (events were rewound, another agent's
 * events were interleaved, a branch filter changed), the nearest position
 * where the anchor matches is used, for a mask and for a summary recorded
 * without its covered contents; if there is none, or the summary records them,
 * it is not applied at all and the full history is sent (and compacted afresh
 * if needed).
 * Nothing is ever dropped on a guess. A record written with the covered
 * contents (covered-contents.ts) is first looked for as a reorder: the same
 * contents in another order (a database reloading a parallel run by
 * timestamp), before the anchor is searched elsewhere.
 */
import { coveredPrefix, type CoveredContents } from './covered-contents.js';

/** Fingerprint of the content at an index (computed from the live contents, never from a cache). */
export type FingerprintAt = (index: number) => string | undefined;

/** Anchor of a watermark at `covered`. */
export function anchorAt(fingerprintAt: FingerprintAt, covered: number): string {
  return `${covered >= 2 ? (fingerprintAt(covered - 2) ?? '') : '^'}|${fingerprintAt(covered - 1) ?? ''}`;
}

type WatermarkMatch =
  | { readonly kind: 'exact'; readonly covered: number }
  /** The live contents before `covered` are all covered ones, in another order (see covered-contents.ts). */
  | { readonly kind: 'reordered'; readonly covered: number }
  | { readonly kind: 'moved'; readonly covered: number }
  | { readonly kind: 'missing' };

/**
 * Where the watermark `covered`/`anchor` falls in contents of `length`, if
 * anywhere: at its place; else, given what it covers, after the longest prefix
 * of covered contents (a reorder); else, with `moved`, where its anchor moved
 * (a mask may: masking a content it never saw is no loss; a summary that
 * records its covered contents may not).
 */
export function locateWatermark(
  fingerprintAt: FingerprintAt,
  length: number,
  covered: number,
  anchor: string,
  contents?: CoveredContents,
  { moved = true }: { readonly moved?: boolean } = {},
): WatermarkMatch {
  if (covered >= 1 && covered <= length && anchorAt(fingerprintAt, covered) === anchor) {
    // A reorder across the watermark can leave the two anchor contents in place and still swap a covered
    // content out for an uncovered one: then only the prefix of covered contents is stripped, or nothing.
    if (!contents || !movedPastWatermark(fingerprintAt, length, covered, contents)) return { kind: 'exact', covered };
    const end = coveredPrefix(fingerprintAt, length, covered, contents);
    return end === undefined ? { kind: 'missing' } : { kind: 'reordered', covered: end };
  }
  if (contents) {
    const end = coveredPrefix(fingerprintAt, length, covered, contents);
    if (end !== undefined) return { kind: 'reordered', covered: end };
  }
  return moved ? movedWatermark(fingerprintAt, length, covered, anchor) : { kind: 'missing' };
}

/**
 * Whether a covered content of the recorded tail is missing before `covered` and found after it: a
 * reorder across the watermark. Checked in order first (last first: the anchor's two were just read);
 * a tail content that is simply gone is not one (PostgreSQL's `jsonb` reorders a tool result's keys
 * on reload, which changes its fingerprint, and the anchor decides then, as before).
 */
function movedPastWatermark(
  fingerprintAt: FingerprintAt,
  length: number,
  covered: number,
  contents: CoveredContents,
): boolean {
  const { tail } = contents;
  const from = covered - tail.length;
  let k = tail.length - 1;
  while (k >= 0 && fingerprintAt(from + k) === tail[k]) k--;
  if (k < 0) return false;
  const missing = new Map<string, number>();
  for (const print of tail) missing.set(print, (missing.get(print) ?? 0) + 1);
  for (let index = from; index < covered; index++) {
    const print = fingerprintAt(index) ?? '';
    const left = missing.get(print) ?? 0;
    if (left > 0) missing.set(print, left - 1);
  }
  for (let index = covered; index < length; index++)
    if ((missing.get(fingerprintAt(index) ?? '') ?? 0) > 0) return true;
  return false;
}

function movedWatermark(fingerprintAt: FingerprintAt, length: number, covered: number, anchor: string): WatermarkMatch {
  // Search outwards from the recorded position; the nearest match is the most likely.
  const start = Math.min(Math.max(covered, 1), length);
  if (start !== covered && start >= 1 && anchorAt(fingerprintAt, start) === anchor)
    return { kind: 'moved', covered: start };
  for (let distance = 1; distance <= length; distance++) {
    const before = start - distance;
    const after = start + distance;
    if (before >= 1 && anchorAt(fingerprintAt, before) === anchor) return { kind: 'moved', covered: before };
    if (after <= length && anchorAt(fingerprintAt, after) === anchor) return { kind: 'moved', covered: after };
    if (before < 1 && after > length) break;
  }
  return { kind: 'missing' };
}

/**
 * A content before the watermark that the summary does not cover: the user's
 * message of the turn that was in flight when a compaction summarized that
 * turn's older tool steps. It stays verbatim in every request until a later
 * compaction covers it, so the covered range is `[0, covered)` minus `at`.
 */
export interface KeptContent {
  /** Its index when the summary was made. */
  readonly at: number;
  /** Its fingerprint, to check it is still the same content. */
  readonly fingerprint: string;
}

/** The stored position of a summary: its watermark, its anchor, the content it keeps, if any, and what it covers. */
export interface SummaryPosition {
  readonly covered: number;
  readonly anchor: string;
  readonly kept?: KeptContent | undefined;
  /** Absent in records written before it existed: those are located by their anchor alone. */
  readonly contents?: CoveredContents | undefined;
}

type SummaryMatch =
  | { readonly kind: 'found'; readonly covered: number; readonly keptAt?: number | undefined }
  | { readonly kind: 'missing'; readonly reason: string };

/**
 * Where a summary's covered range falls in the live contents. The kept content
 * sits at its recorded distance before the watermark (ADK rebuilds the leading
 * contents identically, and a moved watermark moves them together), or else
 * wherever its fingerprint is before the watermark, nearest that place (after
 * a reorder, or events of one millisecond read back in another order); if it is
 * not there the summary is not applied: nothing is stripped on a guess, and the
 * kept message can never be stripped with the rest.
 */
export function locateSummary(fingerprintAt: FingerprintAt, length: number, position: SummaryPosition): SummaryMatch {
  // Its anchor found elsewhere while its covered contents are not a prefix: contents it never read may lie before
  // it (another turn of the session run at once, the same pair of contents earlier in the history), and stripped
  // with it they would be lost. Only a record without them (written before they were kept) is searched so.
  const match = locateWatermark(fingerprintAt, length, position.covered, position.anchor, position.contents, {
    moved: !position.contents,
  });
  if (match.kind === 'missing')
    return {
      kind: 'missing',
      reason: `watermark at ${position.covered} of ${length} contents no longer matches the history`,
    };
  const { kept } = position;
  if (!kept) return { kind: 'found', covered: match.covered };
  const expected = match.kind === 'reordered' ? kept.at : match.covered - (position.covered - kept.at);
  // Not at its distance: searched for near it, as after a reorder. A session store that returns events of one
  // millisecond in another order (PostgreSQL, a code run and its result) moved it by one (the forty-fifth trial).
  const misplaced = expected >= 0 && expected < match.covered && fingerprintAt(expected) !== kept.fingerprint;
  const keptAt =
    match.kind === 'reordered' || misplaced
      ? nearestIndexOf(fingerprintAt, { ...kept, at: expected }, match.covered)
      : expected;
  if (keptAt >= 0 && keptAt < match.covered && fingerprintAt(keptAt) === kept.fingerprint)
    // Kept right before the watermark (a reorder can leave it there): it is simply the first content after it.
    return keptAt === match.covered - 1
      ? { kind: 'found', covered: keptAt }
      : { kind: 'found', covered: match.covered, keptAt };
  // After a reorder every content before the watermark is a covered one: the kept message is not among them but
  // after it (another turn's message came in before it), where it is sent as it is.
  if (match.kind === 'reordered') return { kind: 'found', covered: match.covered };
  return {
    kind: 'missing',
    reason: `the user's message kept at ${kept.at} of ${length} contents no longer matches the history`,
  };
}

/** The index before `end` nearest `kept.at` whose content has the kept fingerprint, or -1. */
function nearestIndexOf(fingerprintAt: FingerprintAt, kept: KeptContent, end: number): number {
  const start = Math.max(0, Math.min(kept.at, end - 1));
  for (let distance = 0; distance < end; distance++) {
    if (start - distance >= 0 && fingerprintAt(start - distance) === kept.fingerprint) return start - distance;
    if (distance > 0 && start + distance < end && fingerprintAt(start + distance) === kept.fingerprint)
      return start + distance;
  }
  return -1;
}
