/**
 * What a scenario's run would cost, the same way for every strategy: each
 * accepted model call at its prompt (cached part at the cached rate) and its
 * reported output, plus each accepted summarizer call (never cached: its
 * prompt is new text every time), at the list prices of one reference model
 * from the package's price table.
 *
 * And the floor no context strategy goes below on the same run: each call's
 * output, and the contents new in each request (appended since the agent's
 * previous call) billed once at the uncached price; nothing read again from
 * the cache, no summary.
 */
import { callCostUsd, priceFor } from '../src/index.js';
import type { CallRecord } from './call-record.js';
import type { SummarizerCall } from '../src/testing/index.js';

/** The model whose list prices every strategy is billed at. */
export const REFERENCE_PRICED_MODEL = 'gemini-2.5-flash';

export interface ScenarioCost {
  readonly cachedPromptTokens: number;
  readonly summarizerPromptTokens: number;
  readonly costUsd: number;
  readonly costFloorUsd: number;
}

export function scenarioCost(
  calls: readonly CallRecord[],
  modelOutputTokens: number,
  summarizerCalls: readonly SummarizerCall[],
): ScenarioCost {
  const price = priceFor(REFERENCE_PRICED_MODEL);
  if (!price) throw new Error(`no price for the reference model ${REFERENCE_PRICED_MODEL}`);
  let costUsd = 0;
  let costFloorUsd = 0;
  let cachedPromptTokens = 0;
  for (const call of calls) {
    if (call.rejected) continue;
    cachedPromptTokens += call.cachedPromptTokens;
    costUsd += callCostUsd(price, {
      promptTokens: call.promptTokens,
      cachedPromptTokens: call.cachedPromptTokens,
      outputTokens: modelOutputTokens,
    });
    const newTokens = Math.min(call.appendedTokens, call.promptTokens);
    costFloorUsd += callCostUsd(price, { promptTokens: newTokens, outputTokens: modelOutputTokens });
  }
  let summarizerPromptTokens = 0;
  for (const call of summarizerCalls) {
    if (call.rejected) continue;
    summarizerPromptTokens += call.promptTokens;
    costUsd += callCostUsd(price, { promptTokens: call.promptTokens, outputTokens: call.outputTokens });
  }
  return { cachedPromptTokens, summarizerPromptTokens, costUsd, costFloorUsd };
}
