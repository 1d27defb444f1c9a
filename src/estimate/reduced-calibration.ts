/**
 * Calibrated tokens of a request a summary reduced, in the same measure as the request before it.
 *
 * The request as measured is calibrated by its last real count (estimate/calibration.ts): when the
 * provider counts it below its estimate, its calibrated figure is under `estimate * factor`. The
 * reduced request was charged at the full factor, so a summary that saved less than that gap read
 * as a larger request than not compacting (~27,643 -> ~28,355 tokens on a provider counting 0.94 of
 * the estimate). Here what stays is charged at the rate the request was measured at (never above
 * the factor) and what the reduction added (the new summary, text the provider has not counted) at
 * the full factor, as calibration charges appended content.
 */

/** A request before and after a reduction, in heuristic tokens, with the calibration of the first. */
interface ReducedRequest {
  /** The request as measured: its heuristic estimate and calibrated tokens. */
  readonly measured: { readonly estimate: number; readonly calibrated: number };
  /** Heuristic estimate of the reduced request. */
  readonly estimate: number;
  /** Of `estimate`, the heuristic tokens the reduction added (the new summary). */
  readonly added: number;
  readonly factor: number;
}

export function calibrateReduced(request: ReducedRequest): number {
  const { measured, factor } = request;
  const rate = measured.estimate > 0 ? Math.min(factor, measured.calibrated / measured.estimate) : factor;
  const added = Math.min(Math.max(0, request.added), request.estimate);
  // Less a rounding error: the request as measured comes back as its own calibrated figure.
  return Math.ceil((request.estimate - added) * rate + added * factor - 1e-9);
}
