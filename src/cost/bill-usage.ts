/**
 * Running totals of what an agent's model calls cost: prompt tokens, the
 * cached part of them, output tokens and a USD estimate. Pure; the plugin
 * persists the result in the agent's usage record.
 */
import { plausibleTokenCount, type UsageRecord } from '../state/guard-state.js';
import { cachedPart, callCostUsd } from './call-cost.js';
import type { ModelPrice } from './price-table.js';

/** The fields of `usageMetadata` the bill reads. */
export interface BilledUsage {
  readonly promptTokenCount?: unknown;
  readonly cachedContentTokenCount?: unknown;
  readonly candidatesTokenCount?: unknown;
  readonly thoughtsTokenCount?: unknown;
}

function count(value: unknown): number | undefined {
  return plausibleTokenCount(value, 0);
}

/**
 * Adds one call's reported usage to the totals. Without a plausible prompt
 * count the record is returned unchanged (nothing to bill); without a price
 * the tokens are counted and `unpricedCalls` says the cost is incomplete.
 * Thinking tokens are billed as output, as Gemini bills them.
 */
export function billUsage(
  usage: UsageRecord,
  reported: BilledUsage | undefined,
  price: ModelPrice | undefined,
): UsageRecord {
  const prompt = count(reported?.promptTokenCount);
  if (prompt === undefined || prompt === 0) return usage;
  const output = (count(reported?.candidatesTokenCount) ?? 0) + (count(reported?.thoughtsTokenCount) ?? 0);
  const cached = cachedPart({ promptTokens: prompt, cachedPromptTokens: count(reported?.cachedContentTokenCount) });
  return {
    ...usage,
    billedPromptTokens: (usage.billedPromptTokens ?? 0) + prompt,
    billedCachedPromptTokens: (usage.billedCachedPromptTokens ?? 0) + cached,
    billedOutputTokens: (usage.billedOutputTokens ?? 0) + output,
    lastCachedPromptTokens: cached,
    ...(price
      ? {
          costUsd:
            (usage.costUsd ?? 0) +
            callCostUsd(price, { promptTokens: prompt, cachedPromptTokens: cached, outputTokens: output }),
        }
      : { unpricedCalls: (usage.unpricedCalls ?? 0) + 1 }),
  };
}
