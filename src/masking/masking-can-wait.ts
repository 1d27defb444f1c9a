/**
 * Whether a masking for room at the threshold may wait for a later call. The threshold is where a reduction must
 * begin for a summary, which takes a model call and may be prepared turns ahead. A masking alone makes no model call
 * and takes effect on the call that makes it, so it can wait until the call that needs it: every masking rewrites
 * the provider's cached prefix from its first placeholder on, and one made turns before it was needed is paid for in
 * full by a session that ends first (support dialogues that crossed the threshold in their last turns paid 2-7% more
 * than no guard: docs/design.md, "A masking for room waits for the call that needs it"). ADK's own compactor likewise
 * lets the turn that crossed its threshold run on. It waits only while
 * - the provider has counted the agent's own request since the last reduction (the factor alone, learned or borrowed,
 *   is a guess for the whole request);
 * - the session's pace is known, and the request plus a turn's growth at that pace stays under the hard limit, so the
 *   next call is still sent as it is if the masking waits again; plus half again of what the request added since that
 *   count beyond a turn's growth: content no count has seen, unlike a turn's, may count faster than the estimate says
 *   (review 39: a document pasted in a turn, counted 1.5 times faster than the rest, went out over the window,
 *   rejected and retried, when the buffer the masking would have kept was what covered it);
 * - a masking made at the hard limit would still be enough, were all the growth until then text it cannot mask, so
 *   waiting never turns a masking into a summary.
 */

/** All in calibrated (real) tokens. */
export interface MaskingWaitInput {
  /** The request as it would be sent without the masking, and with it. */
  readonly calibrated: number;
  readonly masked: number;
  readonly threshold: number;
  readonly hardLimit: number;
  /** What the request may grow by before the next call: the larger of a turn's growth and its rise, if known. */
  readonly growthAhead: number | undefined;
  /**
   * What the request added since the provider last counted the agent's own request, calibrated; undefined when no
   * count of it stands (none yet, or cleared by a reduction since: the factor alone, learned or borrowed, is a guess).
   */
  readonly uncounted: number | undefined;
}

/** Of content no count has seen beyond a turn's growth, the share by which the provider may count it over the estimate. */
const UNCOUNTED_ERROR = 0.5;

export function maskingCanWait(input: MaskingWaitInput): boolean {
  const { calibrated, masked, threshold, hardLimit, growthAhead, uncounted } = input;
  if (growthAhead === undefined || !(growthAhead > 0) || uncounted === undefined) return false;
  const unlike = Math.max(0, uncounted - growthAhead);
  if (!(masked < calibrated) || calibrated + growthAhead + UNCOUNTED_ERROR * unlike > hardLimit) return false;
  return masked + (hardLimit - calibrated) <= threshold;
}

/** What a session's pace says the request may grow by before its next call (usage/turns.ts). */
export function growthAhead(pace: {
  readonly averageTurnTokens?: number | undefined;
  readonly averagePeakRise?: number | undefined;
}): number | undefined {
  const figures = [pace.averageTurnTokens, pace.averagePeakRise].filter(
    (figure): figure is number => figure !== undefined && figure > 0,
  );
  return figures.length > 0 ? Math.max(...figures) : undefined;
}
