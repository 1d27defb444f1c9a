/**
 * Running totals of what an agent's model calls cost: prompt tokens, the
 * cached part of them, output tokens and a USD estimate. Pure; the plugin
 * persists the result in the agent's usage record.
 */
import { plausibleTokenCount } from '../state/codec.js';
import type { ReportedUsage } from '../usage/reported-usage.js';
import { type UsageRecord } from '../usage/stored-usage.js';
import { cachedPart, callCostUsd } from './call-cost.js';
import type { ModelPrice } from './price-table.js';

/** The fields of `usageMetadata` the bill reads: the usage report as the guard reads it (usage/reported-usage.ts). */
export type BilledUsage = ReportedUsage;

function count(value: unknown): number | undefined {
  return plausibleTokenCount(value, 0);
}

/** What one call's reported usage bills: its tokens, and its cost when the model has a price. */
export interface CallBill {
  readonly promptTokens: number;
  /** Of `promptTokens`, those served from the provider's cache. */
  readonly cachedPromptTokens: number;
  /** Output tokens, thinking included. */
  readonly outputTokens: number;
  /** USD at the model's price; `undefined` when it has none. */
  readonly costUsd: number | undefined;
  /** What a later response of a call already billed adds (a streamed call): not another call, priced or not. */
  readonly laterResponse?: boolean | undefined;
}

/**
 * The bill of one call's reported usage, or `undefined` without a plausible prompt count
 * (nothing to bill). Thinking tokens are billed as output, as Gemini bills them.
 */
export function billCall(reported: BilledUsage | undefined, price: ModelPrice | undefined): CallBill | undefined {
  const prompt = count(reported?.promptTokenCount);
  if (prompt === undefined || prompt === 0) return undefined;
  const output = (count(reported?.candidatesTokenCount) ?? 0) + (count(reported?.thoughtsTokenCount) ?? 0);
  const cached = cachedPart({ promptTokens: prompt, cachedPromptTokens: count(reported?.cachedContentTokenCount) });
  return {
    promptTokens: prompt,
    cachedPromptTokens: cached,
    outputTokens: output,
    costUsd: price
      ? callCostUsd(price, { promptTokens: prompt, cachedPromptTokens: cached, outputTokens: output })
      : undefined,
  };
}

/**
 * Adds one call's bill to the totals. Without a bill the record is returned unchanged; without
 * a cost the tokens are counted and `unpricedCalls` says the cost is incomplete.
 */
export function billUsage(usage: UsageRecord, bill: CallBill | undefined): UsageRecord {
  if (!bill) return usage;
  return {
    ...usage,
    billedPromptTokens: (usage.billedPromptTokens ?? 0) + bill.promptTokens,
    billedCachedPromptTokens: (usage.billedCachedPromptTokens ?? 0) + bill.cachedPromptTokens,
    billedOutputTokens: (usage.billedOutputTokens ?? 0) + bill.outputTokens,
    // A later response of one call adds to what that call's first one billed.
    lastCachedPromptTokens: (bill.laterResponse ? (usage.lastCachedPromptTokens ?? 0) : 0) + bill.cachedPromptTokens,
    ...(bill.costUsd !== undefined
      ? { costUsd: (usage.costUsd ?? 0) + bill.costUsd }
      : { unpricedCalls: (usage.unpricedCalls ?? 0) + (bill.laterResponse ? 0 : 1) }),
  };
}

/** Of two reports of one call's usage, each figure at its largest: a stream's later chunk reports at least as much. */
export function largestUsage(before: BilledUsage, now: BilledUsage): BilledUsage {
  const larger = (a: unknown, b: unknown): number | undefined => {
    const x = count(a);
    const y = count(b);
    return x === undefined ? y : y === undefined ? x : Math.max(x, y);
  };
  return {
    promptTokenCount: larger(before.promptTokenCount, now.promptTokenCount),
    cachedContentTokenCount: larger(before.cachedContentTokenCount, now.cachedContentTokenCount),
    candidatesTokenCount: larger(before.candidatesTokenCount, now.candidatesTokenCount),
    thoughtsTokenCount: larger(before.thoughtsTokenCount, now.thoughtsTokenCount),
  };
}

/** What `now`, a call's bill so far, adds to `before`, the part already billed; `undefined` when nothing. */
export function billIncrease(now: CallBill, before: CallBill): CallBill | undefined {
  const promptTokens = Math.max(0, now.promptTokens - before.promptTokens);
  const cachedPromptTokens = Math.max(0, now.cachedPromptTokens - before.cachedPromptTokens);
  const outputTokens = Math.max(0, now.outputTokens - before.outputTokens);
  if (promptTokens === 0 && cachedPromptTokens === 0 && outputTokens === 0) return undefined;
  const costUsd = now.costUsd === undefined ? undefined : Math.max(0, now.costUsd - (before.costUsd ?? 0));
  return { promptTokens, cachedPromptTokens, outputTokens, costUsd, laterResponse: true };
}
