/**
 * What an agent's own before-model callbacks add to a request. ADK runs plugins first, so the
 * guard measures a request before the agent's callbacks append to it; after the model call the
 * guard measures the request as they left it. That addition is carried into the next request as
 * part of its fixed part (the guard cannot remove what is added after it ran), and the estimate
 * paired with the call's real count becomes that of the request actually sent, so the correction
 * learns the tokenizer's error, not the callbacks' additions.
 */
import type { UsageRecord } from './stored-usage.js';

/** `added`: heuristic tokens the callbacks added to this call's request (0 when none). */
export function recordAgentAdditions(usage: UsageRecord, added: number): UsageRecord {
  const measured = Number.isFinite(added) && added > 0 ? Math.round(added) : 0;
  const carried = usage.agentAddedTokens ?? 0;
  if (measured === carried) return usage;
  return {
    ...usage,
    agentAddedTokens: measured > 0 ? measured : undefined,
    // This call's estimate counted the carried addition; the measured one replaces it.
    ...(usage.sentEstimate === undefined ? {} : { sentEstimate: Math.max(1, usage.sentEstimate - carried + measured) }),
  };
}

/**
 * `added` carried to the next requests as it was measured on a rejected request, the estimate left as it
 * is: the retried request's estimate (adk/hooks/retry-rejected.ts) already counts the additions it re-applied.
 */
export function carryAgentAdditions(usage: UsageRecord, added: number): UsageRecord {
  const measured = Number.isFinite(added) && added > 0 ? Math.round(added) : undefined;
  return measured === usage.agentAddedTokens ? usage : { ...usage, agentAddedTokens: measured };
}
