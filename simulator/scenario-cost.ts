/**
 * What a scenario's run would cost, the same way for every strategy, at the
 * list prices of one reference model from the package's price table, counted
 * apart by what is paid for (under caching, a request costs mostly what is not
 * a repeated prefix):
 *
 * - each accepted model call: its uncached prompt tokens at the input price,
 *   its cached ones (the implicit cache's repeated prefix) at the cached price,
 *   its reported output at the output price;
 * - each accepted summarizer call: its cached prompt tokens at the cached
 *   price and the rest at the full input price, and its output. A summary
 *   asked of the agent's own model continues the agent's request, so the
 *   emulated cache serves the prefix it shares with the agent's previous call
 *   (src/testing/cached-prefix.ts); the guard's own prompt and a separate
 *   summarizer's repeat nothing, so nothing of theirs is cached.
 *
 * And the run's floor: every content billed once at the full input price and
 * never read again: for each agent, its first request whole (system
 * instruction, tool declarations and the history ADK built), then in each
 * later request only the contents ADK appended since that agent's previous
 * request; plus each call's output; no summarizer call. Token counts are the
 * request as ADK built it, before any plugin, so a guard's truncation or
 * masking does not lower it.
 */
import { priceFor } from '../src/index.js';
import { callCostParts } from '../src/internal.js';
import type { CallRecord, SummaryCallRecord } from './call-record.js';

/** The model whose list prices every strategy is billed at. */
export const REFERENCE_PRICED_MODEL = 'gemini-2.5-flash';

export interface ScenarioCost {
  /** Prompt tokens of the accepted model calls not served from the cache. */
  readonly uncachedPromptTokens: number;
  readonly cachedPromptTokens: number;
  /** Output tokens of the accepted model calls. */
  readonly outputTokens: number;
  readonly summarizerPromptTokens: number;
  /** Of `summarizerPromptTokens`, those the cache served. */
  readonly summarizerCachedPromptTokens: number;
  readonly summarizerOutputTokens: number;
  readonly uncachedUsd: number;
  readonly cachedUsd: number;
  readonly outputUsd: number;
  /** Summarizer calls, input (cached and uncached) and output. */
  readonly summarizerInputUsd: number;
  readonly summarizerOutputUsd: number;
  /** The sum of the five parts above. */
  readonly costUsd: number;
  readonly costFloorUsd: number;
}

type BilledCall = Pick<
  CallRecord,
  'agent' | 'promptTokens' | 'cachedPromptTokens' | 'rawTokens' | 'appendedTokens' | 'rejected'
>;
type BilledSummary = Pick<SummaryCallRecord, 'promptTokens' | 'cachedPromptTokens' | 'outputTokens' | 'rejected'>;

export function scenarioCost(
  calls: readonly BilledCall[],
  modelOutputTokens: number,
  summarizerCalls: readonly BilledSummary[],
): ScenarioCost {
  const price = priceFor(REFERENCE_PRICED_MODEL);
  if (!price) throw new Error(`no price for the reference model ${REFERENCE_PRICED_MODEL}`);
  const totals = {
    uncachedPromptTokens: 0,
    cachedPromptTokens: 0,
    outputTokens: 0,
    uncachedUsd: 0,
    cachedUsd: 0,
    outputUsd: 0,
  };
  let floorTokens = 0;
  const seenAgents = new Set<string>();
  for (const call of calls) {
    // The floor counts what the conversation holds, whether or not the model took the request.
    floorTokens += seenAgents.has(call.agent) ? Math.max(0, call.appendedTokens) : Math.max(0, call.rawTokens);
    seenAgents.add(call.agent);
    if (call.rejected) continue;
    const cached = Math.min(call.cachedPromptTokens, call.promptTokens);
    const parts = callCostParts(price, {
      promptTokens: call.promptTokens,
      cachedPromptTokens: cached,
      outputTokens: modelOutputTokens,
    });
    totals.uncachedPromptTokens += call.promptTokens - cached;
    totals.cachedPromptTokens += cached;
    totals.outputTokens += modelOutputTokens;
    totals.uncachedUsd += parts.uncachedUsd;
    totals.cachedUsd += parts.cachedUsd;
    totals.outputUsd += parts.outputUsd;
  }
  const summarizer = { promptTokens: 0, cachedPromptTokens: 0, outputTokens: 0, inputUsd: 0, outputUsd: 0 };
  for (const call of summarizerCalls) {
    if (call.rejected) continue;
    const cached = Math.min(call.cachedPromptTokens, call.promptTokens);
    const parts = callCostParts(price, {
      promptTokens: call.promptTokens,
      cachedPromptTokens: cached,
      outputTokens: call.outputTokens,
    });
    summarizer.promptTokens += call.promptTokens;
    summarizer.cachedPromptTokens += cached;
    summarizer.outputTokens += call.outputTokens;
    summarizer.inputUsd += parts.uncachedUsd + parts.cachedUsd;
    summarizer.outputUsd += parts.outputUsd;
  }
  const floor = callCostParts(price, { promptTokens: floorTokens, outputTokens: totals.outputTokens });
  return {
    ...totals,
    summarizerPromptTokens: summarizer.promptTokens,
    summarizerCachedPromptTokens: summarizer.cachedPromptTokens,
    summarizerOutputTokens: summarizer.outputTokens,
    summarizerInputUsd: summarizer.inputUsd,
    summarizerOutputUsd: summarizer.outputUsd,
    costUsd: totals.uncachedUsd + totals.cachedUsd + totals.outputUsd + summarizer.inputUsd + summarizer.outputUsd,
    costFloorUsd: floor.uncachedUsd + floor.outputUsd,
  };
}
