/**
 * Calibration of the heuristic estimate against the provider's real counts.
 *
 *   correction = clamp(max(realPromptTokens / lastEstimate,
 *                          realPromptTokens / net(lastEstimate) * net(estimate) / estimate), 1, 5)
 *                (1.5 before any real count)
 *   net(e)     = max(e - the estimator's framing in e, MIN_CONTENT_SHARE * e)
 *   calibrated = max(estimate * correction, realPromptTokens + (estimate - lastEstimate) * correction)
 *                when realPromptTokens >= lastEstimate (or no real count: estimate * correction), else
 *   calibrated = realPromptTokens + growth * (growth >= 0 ? correction : realPromptTokens / lastEstimate)
 *                with growth = estimate - lastEstimate
 *
 * The framing is what the estimator adds for role markers and part, system and
 * tool framing. Whether a provider counts it is unknown, and its share of a
 * request varies: large on a small request (14% of a 130-token first call),
 * negligible on the large one that may follow. The first ratio is right for a
 * provider that counts it, the second (the ratio of content tokens, applied to
 * this request's content) for one that does not; the larger errs on the safe
 * side, and between requests of the same framing share the two are equal. The
 * share of content is taken as at least MIN_CONTENT_SHARE, which bounds what a
 * provider that does count framing is overestimated by.
 *
 * The second term is delta accounting: the last real count plus the calibrated
 * estimate of what was appended since. It never undercounts a growing history
 * when the clamp at 5 binds. When the provider counted the last request below
 * its estimate (dense code and JSON), the correction cannot go below 1 and the
 * first term would hold the estimate above the provider's own count of what it
 * already saw, so only delta accounting is used: appended content at the
 * correction (new content is not trusted to be as cheap), a shrink credited at
 * the ratio (a removed span may be counted cheaper than its estimate). What it
 * can undercount is bounded by what the removed content's estimate exceeds its
 * real count (docs/design.md, "Calibrating"; calibration.test.ts). `lastEstimate` is always the estimate of the
 * request that was actually sent, so a real count and its estimate refer to the
 * same request. After a compaction the real count is cleared (the pre-compaction
 * count would otherwise pin every estimate above the threshold and loop) but
 * the learned correction is kept as the prior.
 */

import { OPTION_TABLE } from '../config/option-table.js';

export const MIN_CORRECTION = 1;
/**
 * The lowest real/estimate ratio read as the provider's tokenizer counting the same text cheaper
 * (code and JSON: 0.77-0.86 on the recorded runs, docs/design.md "Calibrating"); below it the count is
 * not trusted to cover the request.
 */
export const MIN_TRUSTED_RATIO = 0.5;
export const MAX_CORRECTION = 5;
/** The `defaultCorrection` option's default (from the option table). */
export const DEFAULT_CORRECTION: number = OPTION_TABLE.defaultCorrection.default;

/** What calibration needs to remember between model calls (plain data, persisted in state). */
export interface CalibrationState {
  /** `promptTokenCount` the provider reported for the last request sent. */
  readonly realPromptTokens?: number | undefined;
  /** Heuristic estimate of that same request. */
  readonly lastEstimate?: number | undefined;
  /** Of `lastEstimate`, the estimator's own framing (0 when unknown). */
  readonly lastFraming?: number | undefined;
  /** Correction learned from an earlier pair, kept across compactions. */
  readonly learnedCorrection?: number | undefined;
}

/** The correction factor to apply now, and whether it comes from a real count. */
export function correctionFactor(
  state: CalibrationState,
  defaultCorrection: number = DEFAULT_CORRECTION,
  current?: RequestFraming,
): { factor: number; calibrated: boolean } {
  const { realPromptTokens, lastEstimate, learnedCorrection } = state;
  if (isPositive(realPromptTokens) && isPositive(lastEstimate)) {
    const share = current && contentShare(current.estimate, current.framing);
    return { factor: learnedFactor(realPromptTokens, lastEstimate, state.lastFraming, share), calibrated: true };
  }
  if (isPositive(learnedCorrection)) return { factor: clampCorrection(learnedCorrection), calibrated: true };
  return { factor: clampCorrection(defaultCorrection), calibrated: false };
}

/** Calibrated token count of a request whose heuristic estimate is `estimate`. */
export function calibrate(
  estimate: number,
  state: CalibrationState,
  defaultCorrection: number = DEFAULT_CORRECTION,
  framing?: number,
): number {
  const { factor } = correctionFactor(
    state,
    defaultCorrection,
    framing === undefined ? undefined : { estimate, framing },
  );
  const scaled = estimate * factor;
  const { realPromptTokens, lastEstimate } = state;
  if (!isPositive(realPromptTokens) || !isPositive(lastEstimate)) return Math.ceil(scaled);
  const growth = estimate - lastEstimate;
  const ratio = realPromptTokens / lastEstimate;
  // The provider counts the last request below its estimate, within what a tokenizer difference
  // explains: its count of what it saw is trusted, appended content charged at the factor (at least
  // 1), a shrink credited at the ratio only (continuous at no growth: never less as the estimate
  // grows). A count far below (a provider that leaves cached tokens out, a count paired with
  // another call's estimate) falls to the rule below, which never counts under the estimate.
  if (ratio < 1 && ratio >= MIN_TRUSTED_RATIO)
    return Math.ceil(realPromptTokens + growth * (growth >= 0 ? factor : ratio));
  // A shrink is credited at the minimum factor only, so it can never undercount.
  const fromReal = growth >= 0 ? realPromptTokens + growth * factor : realPromptTokens + growth * MIN_CORRECTION;
  return Math.ceil(Math.max(scaled, fromReal));
}

/** A request's heuristic estimate and the estimator's own framing within it. */
interface RequestFraming {
  readonly estimate: number;
  readonly framing: number;
}

/**
 * The least share of content assumed in an estimate. It covers the framing of a
 * small first request (an instruction, a tool and a short question) and caps at
 * 1 / 0.8 the overestimate of a provider that counts framing when the last
 * request was mostly framing (a chain of tool calls with short arguments and
 * results): within the default buffer of 20%, so a request the plain ratio puts
 * well under the threshold is not cut (docs/design.md, Calibrating).
 */
export const MIN_CONTENT_SHARE = 0.8;

/** The share of an estimate that is not the estimator's framing (at least MIN_CONTENT_SHARE; 1 when unknown). */
export function contentShare(estimate: number, framing: number | undefined): number {
  if (!isPositive(estimate) || !isPositive(framing)) return 1;
  return Math.max(estimate - framing, estimate * MIN_CONTENT_SHARE) / estimate;
}

/**
 * The correction a real count of the last request teaches for a request whose
 * content share is `share` (by default the last one's): the larger of the
 * ratio to the whole estimate and the ratio of content tokens scaled to that
 * share, clamped. Never lower than the ratio to the whole estimate.
 */
export function learnedFactor(
  realPromptTokens: number,
  lastEstimate: number,
  lastFraming: number | undefined,
  share?: number,
): number {
  const whole = realPromptTokens / lastEstimate;
  const lastShare = contentShare(lastEstimate, lastFraming);
  const ofContent = (whole / lastShare) * (share ?? lastShare);
  return clampCorrection(Math.max(whole, ofContent));
}

export function clampCorrection(value: number): number {
  if (!Number.isFinite(value)) return MAX_CORRECTION;
  return Math.min(MAX_CORRECTION, Math.max(MIN_CORRECTION, value));
}

function isPositive(value: number | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}
