/**
 * The counts of `status()` from the session's events when it has them: the per-call records summed
 * (records/call-totals.ts) replace the usage record's counters, which concurrent turns and replicas
 * overwrite. One source for all of an agent's counts, so that they agree with one another.
 */
import type { CallTotals } from '../records/call-totals.js';
import type { AgentContextStatus } from './context-status.js';

/**
 * `status` with its counts taken from `totals` when those hold at least as many model calls as the
 * usage record. Fewer mean the events do not hold every call: a session whose first calls predate
 * the per-call records, or one read with only its recent events (`numRecentEvents`); the usage
 * record is then the better count, as it is for a session without events.
 */
export function withCallTotals(status: AgentContextStatus, totals: CallTotals | undefined): AgentContextStatus {
  if (totals === undefined || totals.modelCalls < status.modelCalls) return status;
  return {
    ...status,
    known: true,
    countsFrom: 'events',
    modelCalls: totals.modelCalls,
    invocations: totals.invocations,
    compactions: totals.compactions,
    maskings: totals.maskings,
    discardedCompactions: totals.discardedCompactions,
    droppedPreparations: totals.droppedPreparations,
    rejectedCalls: totals.rejectedCalls,
    retriedCalls: totals.retriedCalls,
    overLimitCalls: totals.overLimitCalls,
    budgetLines: totals.budgetLines,
    budgetLineTokens: totals.budgetLineTokens,
    promptTokens: totals.promptTokens,
    cachedPromptTokens: totals.cachedPromptTokens,
    uncachedPromptTokens: totals.promptTokens - totals.cachedPromptTokens,
    outputTokens: totals.outputTokens,
    // Like the usage record's, undefined until a priced call was billed.
    costUsd: totals.costUsd > 0 || status.costUsd !== undefined ? totals.costUsd : undefined,
    unpricedCalls: totals.unpricedCalls,
    summarizerCalls: totals.summarizerCalls,
    summarizerPromptTokens: totals.summarizerPromptTokens,
    summarizerCachedPromptTokens: totals.summarizerCachedPromptTokens,
    summarizerOutputTokens: totals.summarizerOutputTokens,
    summarizerCostUsd:
      totals.summarizerCostUsd > 0 || status.summarizerCostUsd !== undefined ? totals.summarizerCostUsd : undefined,
    unpricedSummarizerCalls: totals.unpricedSummarizerCalls,
  };
}
