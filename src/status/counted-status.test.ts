import { describe, expect, it } from 'vitest';
import type { CallTotals } from '../records/call-totals.js';
import { encodeRecord } from '../state/codec.js';
import { EMPTY_USAGE } from '../usage/stored-usage.js';
import { stateKeysFor } from '../state/keys.js';
import { withCallTotals } from './counted-status.js';
import { agentStatus } from './context-status.js';

/** The status the usage record gives: 16 calls and no compaction, where more happened. */
const fromState = agentStatus(
  {
    [stateKeysFor('worker').usage]: encodeRecord({
      ...EMPTY_USAGE,
      modelCalls: 16,
      invocations: 8,
      billedPromptTokens: 16_000,
      billedCachedPromptTokens: 4_000,
      billedOutputTokens: 800,
      costUsd: 0.01,
    }),
  },
  'worker',
);

const totals: CallTotals = {
  modelCalls: 48,
  invocations: 24,
  compactions: 3,
  maskings: 5,
  discardedCompactions: 0,
  droppedPreparations: 2,
  overLimitCalls: 1,
  rejectedCalls: 2,
  retriedCalls: 1,
  budgetLines: 0,
  budgetLineTokens: 0,
  promptTokens: 50_000,
  cachedPromptTokens: 12_000,
  outputTokens: 2_400,
  costUsd: 0.03,
  unpricedCalls: 0,
  summarizerCalls: 3,
  summarizerPromptTokens: 9_000,
  summarizerCachedPromptTokens: 6_000,
  summarizerOutputTokens: 900,
  summarizerCostUsd: 0.004,
  unpricedSummarizerCalls: 0,
};

describe('withCallTotals', () => {
  it("should take every count from the events' records when they hold the agent's calls", () => {
    expect(fromState.countsFrom).toBe('state');
    expect(withCallTotals(fromState, totals)).toEqual({
      ...fromState,
      countsFrom: 'events',
      modelCalls: 48,
      invocations: 24,
      compactions: 3,
      maskings: 5,
      droppedPreparations: 2,
      rejectedCalls: 2,
      retriedCalls: 1,
      overLimitCalls: 1,
      promptTokens: 50_000,
      cachedPromptTokens: 12_000,
      uncachedPromptTokens: 38_000,
      outputTokens: 2_400,
      costUsd: 0.03,
      unpricedCalls: 0,
      summarizerCalls: 3,
      summarizerPromptTokens: 9_000,
      summarizerCachedPromptTokens: 6_000,
      summarizerOutputTokens: 900,
      summarizerCostUsd: 0.004,
      unpricedSummarizerCalls: 0,
    });
  });

  it('should keep the usage record when the events hold fewer calls (earlier calls without records, recent events only)', () => {
    expect(withCallTotals(fromState, { ...totals, modelCalls: 15 })).toBe(fromState);
  });

  it('should keep the usage record for a session without events', () => {
    expect(withCallTotals(fromState, undefined)).toBe(fromState);
  });

  it('should know an agent whose records are on the events though state has no usage record for it', () => {
    const unknown = agentStatus({}, 'worker');
    expect(unknown.known).toBe(false);
    expect(withCallTotals(unknown, totals)).toMatchObject({ known: true, countsFrom: 'events', modelCalls: 48 });
  });
});
