/**
 * What an agent's own before-model callbacks add to a request. ADK runs plugins first, so the
 * guard measures a request before the agent's callbacks append to it; after the model call the
 * guard measures the request as they left it. That addition is carried into the next request as
 * part of its fixed part (the guard cannot remove what is added after it ran), and the estimate
 * paired with the call's real count becomes that of the request actually sent, so the correction
 * learns the tokenizer's error, not the callbacks' additions. What they remove is not carried: the
 * next request reaches the guard whole again, and a removal it did not make cannot keep that request
 * under the window. The paired estimate still loses it, or a callback that sends a quarter of the
 * request would pair the provider's count with four times its estimate and wear the correction down
 * to its floor, under what the tokenizer really needs once the callback stops removing.
 */
import type { UsageRecord } from './stored-usage.js';

/** `change`: heuristic tokens the callbacks added to this call's request, less those they removed. */
export function recordAgentAdditions(usage: UsageRecord, change: number): UsageRecord {
  const net = Number.isFinite(change) ? Math.round(change) : 0;
  const measured = Math.max(0, net);
  const carried = usage.agentAddedTokens ?? 0;
  // Gemini's Interactions API counts the chain its server holds, which a callback's removal from the request
  // does not shorten: there the count is paired with the whole request, as before.
  const paired = usage.interactionsApi === true ? measured : net;
  // This call's estimate counted the carried addition; what the callbacks changed replaces it.
  const sentEstimate =
    usage.sentEstimate === undefined ? undefined : Math.max(1, usage.sentEstimate - carried + paired);
  if (measured === carried && sentEstimate === usage.sentEstimate) return usage;
  return {
    ...usage,
    agentAddedTokens: measured > 0 ? measured : undefined,
    ...(sentEstimate === undefined ? {} : { sentEstimate }),
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
