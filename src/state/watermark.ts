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
 * where the anchor matches is used; if there is none, the summary is not
 * applied at all and the full history is sent (and compacted afresh if needed).
 * Nothing is ever dropped on a guess.
 */

/** Fingerprint of the content at an index (computed from the live contents, never from a cache). */
export type FingerprintAt = (index: number) => string | undefined;

/** Anchor of a watermark at `covered`. */
export function anchorAt(fingerprintAt: FingerprintAt, covered: number): string {
  return `${covered >= 2 ? (fingerprintAt(covered - 2) ?? '') : '^'}|${fingerprintAt(covered - 1) ?? ''}`;
}

type WatermarkMatch =
  | { readonly kind: 'exact'; readonly covered: number }
  | { readonly kind: 'moved'; readonly covered: number }
  | { readonly kind: 'missing' };

/** Where the watermark `covered`/`anchor` falls in contents of `length`, if anywhere. */
export function locateWatermark(
  fingerprintAt: FingerprintAt,
  length: number,
  covered: number,
  anchor: string,
): WatermarkMatch {
  if (covered >= 1 && covered <= length && anchorAt(fingerprintAt, covered) === anchor)
    return { kind: 'exact', covered };
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

/** The stored position of a summary: its watermark, its anchor, and the content it keeps, if any. */
export interface SummaryPosition {
  readonly covered: number;
  readonly anchor: string;
  readonly kept?: KeptContent | undefined;
}

type SummaryMatch =
  | { readonly kind: 'found'; readonly covered: number; readonly keptAt?: number | undefined }
  | { readonly kind: 'missing'; readonly reason: string };

/**
 * Where a summary's covered range falls in the live contents. The kept content
 * sits at its recorded distance before the watermark (ADK rebuilds the leading
 * contents identically, and a moved watermark moves them together); if its
 * fingerprint is not there the summary is not applied: nothing is stripped on a
 * guess, and the kept message can never be stripped with the rest.
 */
export function locateSummary(fingerprintAt: FingerprintAt, length: number, position: SummaryPosition): SummaryMatch {
  const match = locateWatermark(fingerprintAt, length, position.covered, position.anchor);
  if (match.kind === 'missing')
    return {
      kind: 'missing',
      reason: `watermark at ${position.covered} of ${length} contents no longer matches the history`,
    };
  const { kept } = position;
  if (!kept) return { kind: 'found', covered: match.covered };
  const keptAt = match.covered - (position.covered - kept.at);
  if (keptAt >= 0 && keptAt < match.covered && fingerprintAt(keptAt) === kept.fingerprint)
    return { kind: 'found', covered: match.covered, keptAt };
  return {
    kind: 'missing',
    reason: `the user's message kept at ${kept.at} of ${length} contents no longer matches the history`,
  };
}
