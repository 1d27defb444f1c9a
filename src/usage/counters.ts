/**
 * The counters an agent's usage record keeps: calls, compactions, maskings, rejections, calls over
 * the limit, and the running bill of reported usage (see cost/bill-usage.ts), the summarizer's apart
 * (cost/bill-summary.ts).
 */
import type { AgentUsageFigures } from './agent-usage-figures.js';
import { MAX_PLAUSIBLE_TOKENS } from '../state/codec.js';
import type { FieldReader } from '../state/field-reader.js';

export interface UsageCounters extends Pick<
  AgentUsageFigures,
  | 'modelCalls'
  | 'compactions'
  | 'maskings'
  | 'discardedCompactions'
  | 'droppedPreparations'
  | 'rejectedCalls'
  | 'retriedCalls'
  | 'overLimitCalls'
  | 'costUsd'
  | 'budgetLines'
  | 'budgetLineTokens'
> {
  /** Running totals of reported usage (see cost/bill-usage.ts): prompt tokens, cached ones among them, output tokens. */
  readonly billedPromptTokens?: number | undefined;
  readonly billedCachedPromptTokens?: number | undefined;
  readonly billedOutputTokens?: number | undefined;
  /** Cached prompt tokens of the last call, when reported. */
  readonly lastCachedPromptTokens?: number | undefined;
  /** Calls with reported usage whose model has no price (left out of `costUsd`). */
  readonly unpricedCalls?: number | undefined;
  /**
   * The summarizer's own calls, apart from the agent's (see cost/bill-summary.ts): their count, prompt
   * tokens, the cached part of them, output tokens, USD of those priced, and those whose cost is
   * unknown (no usage reported, or no price). Absent in records written before they were kept.
   */
  readonly summarizerCalls?: number | undefined;
  readonly summarizerPromptTokens?: number | undefined;
  readonly summarizerCachedPromptTokens?: number | undefined;
  readonly summarizerOutputTokens?: number | undefined;
  readonly summarizerCostUsd?: number | undefined;
  readonly unpricedSummarizerCalls?: number | undefined;
}

export function decodeCounters(read: FieldReader): UsageCounters {
  return {
    modelCalls: read.counter('modelCalls'),
    compactions: read.counter('compactions'),
    maskings: read.counter('maskings'),
    discardedCompactions: read.counter('discardedCompactions'),
    droppedPreparations: read.counter('droppedPreparations'),
    overLimitCalls: read.counter('overLimitCalls'),
    rejectedCalls: read.counter('rejectedCalls'),
    retriedCalls: read.counter('retriedCalls'),
    budgetLines: read.counter('budgetLines'),
    budgetLineTokens: read.counter('budgetLineTokens'),
    billedPromptTokens: read.number('billedPromptTokens', {}),
    billedCachedPromptTokens: read.number('billedCachedPromptTokens', {}),
    billedOutputTokens: read.number('billedOutputTokens', {}),
    lastCachedPromptTokens: read.number('lastCachedPromptTokens', { max: MAX_PLAUSIBLE_TOKENS }),
    costUsd: read.number('costUsd', { max: Number.MAX_VALUE }),
    unpricedCalls: read.number('unpricedCalls', { integer: true }),
    summarizerCalls: read.number('summarizerCalls', { integer: true }),
    summarizerPromptTokens: read.number('summarizerPromptTokens', {}),
    summarizerCachedPromptTokens: read.number('summarizerCachedPromptTokens', {}),
    summarizerOutputTokens: read.number('summarizerOutputTokens', {}),
    summarizerCostUsd: read.number('summarizerCostUsd', { max: Number.MAX_VALUE }),
    unpricedSummarizerCalls: read.number('unpricedSummarizerCalls', { integer: true }),
  };
}
