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

export type WatermarkMatch =
  | { readonly kind: 'exact'; readonly covered: number }
  | { readonly kind: 'moved'; readonly covered: number }
  | { readonly kind: 'missing' };

/** Where the watermark `covered`/`anchor` falls in contents of `length`, if anywhere. */
export function locateWatermark(fingerprintAt: FingerprintAt, length: number, covered: number, anchor: string): WatermarkMatch {
  if (covered >= 1 && covered <= length && anchorAt(fingerprintAt, covered) === anchor) return { kind: 'exact', covered };
  // Search outwards from the recorded position; the nearest match is the most likely.
  const start = Math.min(Math.max(covered, 1), length);
  if (start !== covered && start >= 1 && anchorAt(fingerprintAt, start) === anchor) return { kind: 'moved', covered: start };
  for (let distance = 1; distance <= length; distance++) {
    const before = start - distance;
    const after = start + distance;
    if (before >= 1 && anchorAt(fingerprintAt, before) === anchor) return { kind: 'moved', covered: before };
    if (after <= length && anchorAt(fingerprintAt, after) === anchor) return { kind: 'moved', covered: after };
    if (before < 1 && after > length) break;
  }
  return { kind: 'missing' };
}
