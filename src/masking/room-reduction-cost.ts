/**
 * Which reduction for room costs least per call: a masking alone that lands
 * just under the threshold, or the masking with a summary down to the target.
 * Every reduction rewrites the provider's cached prefix from its first change
 * on, billed once uncached; a summary also costs its summarizer call. What a
 * reduction buys is the calls until the request reaches the threshold again,
 * each re-reading its prefix from the cache. So, per call over that cycle,
 *
 *   cost(x) = ((1 − r) × rewritten(x) + summarizer(x)) / calls(x) + read((after(x) + threshold) / 2)
 *   summarizer(x) = uncached input + r × cached input + output price ratio × summary
 *   calls(x) = max(1, (threshold − after(x)) / growth per call)
 *
 * with `read` and `r` as in pays-for-cache.ts. A masking that leaves less
 * than a call's growth under the threshold pays its rewrite on one call only,
 * and the next call reduces again: then a summary made now can be cheaper.
 * The derivation and its measurement are in docs/design.md ("Reducing for room: deep or shallow").
 */
import { MIN_CACHED_PREFIX_TOKENS } from '../cost/cache-terms.js';
import { readCost } from './pays-for-cache.js';

/** One way to reduce, in calibrated (real) tokens. */
export interface ReductionCandidate {
  /** The request after the reduction. */
  readonly after: number;
  /** Tokens from the first changed content to the end of the request: sent once uncached instead of cached. */
  readonly rewritten: number;
  /** The summarizer's prompt billed at the full price, and its summary (0 for a masking alone). */
  readonly summarizerInput: number;
  readonly summaryOutput: number;
  /**
   * The summarizer's prompt the provider serves from its cache: the agent's own request the summary
   * continues (summary/summary-from-request.ts), whose prefix the agent's previous call cached.
   */
  readonly summarizerCachedInput?: number | undefined;
}

export interface ReductionTerms {
  /** Calibrated threshold of the budget. */
  readonly threshold: number;
  /** Calibrated tokens the request grows by per model call. */
  readonly growthPerCall: number;
  /** Cached over uncached price of the agent's model, in [0, 1]. */
  readonly cachedPriceRatio: number;
  /** Output over uncached input price of the agent's model: what the summary it writes costs per token. */
  readonly outputPriceRatio: number;
}

/** Calls until the request reaches the threshold again, at least this one. */
export function callsUntilNext(after: number, terms: ReductionTerms): number {
  if (!(terms.growthPerCall > 0)) return 1;
  return Math.max(1, (terms.threshold - after) / terms.growthPerCall);
}

/** What a reduction costs per call over the calls it buys, in uncached-token equivalents. */
export function costPerCall(candidate: ReductionCandidate, terms: ReductionTerms): number {
  const ratio = terms.cachedPriceRatio;
  // A request under the cacheable minimum has no cache to break: it is read whole on every call anyway.
  const rewrite = candidate.after >= MIN_CACHED_PREFIX_TOKENS ? (1 - ratio) * candidate.rewritten : 0;
  const summarizer =
    candidate.summarizerInput +
    ratio * (candidate.summarizerCachedInput ?? 0) +
    terms.outputPriceRatio * candidate.summaryOutput;
  const meanPrefix = (Math.min(candidate.after, terms.threshold) + terms.threshold) / 2;
  return (rewrite + summarizer) / callsUntilNext(candidate.after, terms) + readCost(meanPrefix, ratio);
}

/** Whether summarizing now (`deep`) costs less per call than the masking alone (`shallow`). */
export function deeperPays(shallow: ReductionCandidate, deep: ReductionCandidate, terms: ReductionTerms): boolean {
  return deep.after < shallow.after && costPerCall(deep, terms) < costPerCall(shallow, terms);
}

interface GrowthInput {
  /** Moving average of what one turn adds (usage record), if known. */
  readonly averageTurnTokens: number | undefined;
  readonly modelCalls: number;
  readonly invocations: number;
  /** Calibrated tokens and model steps of the in-flight turn so far, for a session still in its first long turn. */
  readonly inFlightTokens: number;
  readonly inFlightSteps: number;
}

/**
 * Calibrated tokens the request grows by per call: a turn's average growth over the calls a turn
 * makes, or, before any turn has completed, what the in-flight turn added per step so far.
 */
export function growthPerCall(input: GrowthInput): number {
  const turns = Math.max(1, input.invocations);
  if (input.averageTurnTokens !== undefined && input.averageTurnTokens > 0)
    return input.averageTurnTokens / Math.max(1, input.modelCalls / turns);
  return input.inFlightSteps > 0 ? input.inFlightTokens / input.inFlightSteps : 0;
}
