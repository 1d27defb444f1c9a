/**
 * What the summarizer's calls cost, kept apart from the agent's own calls: a summary over the agent's
 * own model reads the agent's cached prefix (summary/summary-from-request.ts), so its cached share is
 * what tells whether that worked. Pure; the shell bills each compaction's summarizer call once.
 */
import type { UsageRecord } from '../usage/stored-usage.js';
import { plausibleTokenCount } from '../state/codec.js';
import { cachedPart, callCostUsd } from './call-cost.js';
import type { ModelPrice } from './price-table.js';

/** The figures of one compaction the bill reads (a compaction record has them). */
interface SummarizerFigures {
  /** Set when the mechanical summary was used; `'unavailable'`: no summarizer was called at all. */
  readonly fallbackReason?: string | undefined;
  /** When the summary took more than one call. */
  readonly summarizerCalls?: number | undefined;
  readonly summarizerPromptTokens?: number | undefined;
  readonly summarizerCachedPromptTokens?: number | undefined;
  readonly summarizerOutputTokens?: number | undefined;
}

/** A compaction record's figures with the cost the shell priced them at. */
interface PricedSummarizerFigures extends SummarizerFigures {
  readonly summarizerCostUsd?: number | undefined;
}

/** The bill of one summary's summarizer calls (one, or several when what it covers did not fit its window at once). */
export interface SummarizerBill {
  /** How many calls. */
  readonly calls: number;
  readonly promptTokens: number;
  /** Of `promptTokens`, those the provider served from its cache. */
  readonly cachedPromptTokens: number;
  readonly outputTokens: number;
  /**
   * USD at the summarizer model's price; `undefined` when the cost is unknown: the summarizer
   * reported no usage (a `Summarizer` of your own may not; a failed call does not), or its model has no price.
   */
  readonly costUsd: number | undefined;
}

/** The most calls one summary's bill is read as: more than a summary takes (summary/summarize-covered.ts). */
export const MAX_CALLS = 16;

/** The bill of the summarizer calls a compaction made, or `undefined` when it called none. */
export function billSummarizerCall(
  figures: SummarizerFigures,
  price: ModelPrice | undefined,
): SummarizerBill | undefined {
  if (figures.fallbackReason === 'unavailable') return undefined;
  const calls = Math.min(MAX_CALLS, Math.max(1, Math.floor(plausibleTokenCount(figures.summarizerCalls, 1) ?? 1)));
  const prompt = plausibleTokenCount(figures.summarizerPromptTokens, 0);
  const output = plausibleTokenCount(figures.summarizerOutputTokens, 0) ?? 0;
  if (prompt === undefined || prompt === 0)
    return { calls, promptTokens: 0, cachedPromptTokens: 0, outputTokens: output, costUsd: undefined };
  const cached = cachedPart({
    promptTokens: prompt,
    cachedPromptTokens: plausibleTokenCount(figures.summarizerCachedPromptTokens, 0),
  });
  const tokens = { promptTokens: prompt, cachedPromptTokens: cached, outputTokens: output };
  return { calls, ...tokens, costUsd: price ? callCostUsd(price, tokens) : undefined };
}

/** Two bills of one call's summaries as one (a compaction, and a retry's summary not kept); `undefined` if neither. */
export function sumBills(a: SummarizerBill | undefined, b: SummarizerBill | undefined): SummarizerBill | undefined {
  if (!a || !b) return a ?? b;
  return {
    calls: a.calls + b.calls,
    promptTokens: a.promptTokens + b.promptTokens,
    cachedPromptTokens: a.cachedPromptTokens + b.cachedPromptTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    costUsd: a.costUsd === undefined || b.costUsd === undefined ? undefined : a.costUsd + b.costUsd,
  };
}

/** The bill a compaction record carries (priced when it was made), or `undefined` when it called no summarizer. */
export function recordedSummarizerBill(record: PricedSummarizerFigures): SummarizerBill | undefined {
  const bill = billSummarizerCall(record, undefined);
  if (!bill) return undefined;
  const cost = record.summarizerCostUsd;
  return { ...bill, costUsd: typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 ? cost : undefined };
}

/**
 * Adds one summarizer call's bill to the usage record's summarizer totals, and its cost to `costUsd`
 * too (the total; `summarizerCostUsd` is its summarizer part), never to the agent's own `billed*`
 * token totals. A call whose cost is unknown counts in `unpricedSummarizerCalls`.
 */
export function billSummarizerUsage(usage: UsageRecord, bill: SummarizerBill | undefined): UsageRecord {
  if (!bill) return usage;
  return {
    ...usage,
    summarizerCalls: (usage.summarizerCalls ?? 0) + bill.calls,
    summarizerPromptTokens: (usage.summarizerPromptTokens ?? 0) + bill.promptTokens,
    summarizerCachedPromptTokens: (usage.summarizerCachedPromptTokens ?? 0) + bill.cachedPromptTokens,
    summarizerOutputTokens: (usage.summarizerOutputTokens ?? 0) + bill.outputTokens,
    ...(bill.costUsd !== undefined
      ? {
          summarizerCostUsd: (usage.summarizerCostUsd ?? 0) + bill.costUsd,
          costUsd: (usage.costUsd ?? 0) + bill.costUsd,
        }
      : { unpricedSummarizerCalls: (usage.unpricedSummarizerCalls ?? 0) + bill.calls }),
  };
}
