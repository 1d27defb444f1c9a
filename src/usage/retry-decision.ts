/**
 * Whether a request the provider rejected as too long is sent again, within the same model call,
 * once the guard has decided it afresh with what the rejection taught (a learned window, a forced
 * compaction). Pure: the shell (adk/hooks/retry-rejected.ts) measures and applies.
 */
import type { UsageRecord } from './stored-usage.js';

/** The rejected request and the guard's new decision on it. */
interface RetryAttempt {
  /** Heuristic estimate of the request the provider rejected. */
  readonly rejectedEstimate: number;
  /** Heuristic estimate of the request as the new decision would send it. */
  readonly estimate: number;
  /** The new decision is still over the hard limit after every reduction. */
  readonly overLimit: boolean;
  /** The rejection stated a size that cannot be this request (usage/provider-feedback.ts `notAbout`). */
  readonly notAbout?: boolean | undefined;
}

/**
 * True when the request came out smaller and the guard believes it fits: a request that cannot be
 * made smaller, or still does not fit the guard's own limit, would only be rejected again. A rejection
 * whose statement is not about this request (a spurious 400) is sent again even unchanged, once: on an
 * agent's first call there is nothing to make smaller, and the 400 reached the user (the eighth outside trial).
 */
export function retryPays(attempt: RetryAttempt): boolean {
  if (attempt.overLimit) return false;
  return attempt.estimate < attempt.rejectedEstimate || attempt.notAbout === true;
}

/** The usage record with one more retried call. */
export function withRetriedCall(usage: UsageRecord): UsageRecord {
  return { ...usage, retriedCalls: usage.retriedCalls + 1 };
}

/**
 * The usage record after a retry decision that was not taken: the summaries it made (`made`: its
 * compactions and the summaries it discarded itself) are thrown away with it, and counted as
 * discarded, as a summary no smaller than its history is.
 */
export function withDiscardedSummaries(usage: UsageRecord, made: number): UsageRecord {
  return made > 0 ? { ...usage, discardedCompactions: usage.discardedCompactions + made } : usage;
}
