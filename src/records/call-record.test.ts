import { describe, expect, it } from 'vitest';
import { MAX_CALLS } from '../cost/bill-summary.js';
import { EMPTY_USAGE } from '../usage/stored-usage.js';
import { MAX_PLAUSIBLE_TOKENS } from '../state/codec.js';
import {
  buildCallRecord,
  callCountsBetween,
  decodeCallRecord,
  encodeCallRecord,
  MAX_COST_PER_RECORD_USD,
  MAX_COUNT_PER_RECORD,
  NO_COUNTS,
} from './call-record.js';

const BILL = { promptTokens: 4_000, cachedPromptTokens: 2_048, outputTokens: 80, costUsd: 0.0012 };

describe('callCountsBetween', () => {
  it("should take a call's counts from the usage record before and after it", () => {
    const before = { ...EMPTY_USAGE, modelCalls: 7, compactions: 2, maskings: 1, overLimitCalls: 3 };
    const after = {
      ...before,
      modelCalls: 8,
      compactions: 3,
      discardedCompactions: 1,
      droppedPreparations: 1,
      overLimitCalls: 4,
    };
    expect(callCountsBetween(before, after)).toEqual({
      modelCalls: 1,
      compactions: 1,
      maskings: 0,
      discardedCompactions: 1,
      droppedPreparations: 1,
      overLimitCalls: 1,
      rejectedCalls: 0,
      retriedCalls: 0,
      budgetLines: 0,
      budgetLineTokens: 0,
    });
  });

  it('should never count a counter that went down', () => {
    expect(callCountsBetween({ ...EMPTY_USAGE, modelCalls: 5 }, EMPTY_USAGE)).toEqual(NO_COUNTS);
  });
});

describe('buildCallRecord', () => {
  it('should make no record for a call that counted and billed nothing', () => {
    expect(buildCallRecord('id', 'worker', undefined, undefined)).toBeUndefined();
    expect(buildCallRecord('id', 'worker', NO_COUNTS, undefined)).toBeUndefined();
  });

  it('should count a billed call without a price as unpriced', () => {
    const record = buildCallRecord('id', 'worker', undefined, { ...BILL, costUsd: undefined });
    expect(record).toMatchObject({ modelCalls: 0, promptTokens: 4_000, costUsd: 0, unpricedCalls: 1 });
  });
});

describe('encodeCallRecord and decodeCallRecord', () => {
  it('should round-trip a record through JSON, leaving zero figures out of the event', () => {
    const record = buildCallRecord('call-1', 'worker', { ...NO_COUNTS, modelCalls: 1, compactions: 1 }, BILL)!;
    const encoded = encodeCallRecord(record);
    expect(Object.keys(encoded)).not.toContain('maskings');
    expect(decodeCallRecord(JSON.parse(JSON.stringify(encoded)))).toEqual(record);
  });

  it("should carry a background summary's preparation id with its summarizer bill, and read a hostile one as none", () => {
    const summary = { calls: 1, promptTokens: 900, cachedPromptTokens: 0, outputTokens: 40, costUsd: 0.0002 };
    const record = buildCallRecord('call-2', 'worker', undefined, undefined, summary, 'prep-1')!;
    expect(decodeCallRecord(JSON.parse(JSON.stringify(encodeCallRecord(record))))).toEqual(record);
    expect(record.preparationId).toBe('prep-1');
    // Without a summarizer bill there is nothing to count once per preparation.
    expect(
      buildCallRecord('call-3', 'worker', { ...NO_COUNTS, modelCalls: 1 }, BILL, undefined, 'prep-1')?.preparationId,
    ).toBeUndefined();
    for (const preparationId of [7, '', 'x'.repeat(101), { id: 'p' }])
      expect(decodeCallRecord({ ...encodeCallRecord(record), preparationId })?.preparationId).toBeUndefined();
    // Only a record with a summarizer part names a preparation.
    expect(
      decodeCallRecord({ agentName: 'worker', modelCalls: 1, preparationId: 'prep-1' })?.preparationId,
    ).toBeUndefined();
  });

  it('should skip what is not a record of an agent', () => {
    for (const value of [undefined, null, 'text', 42, [], {}, { agentName: '' }, { agentName: 7, modelCalls: 1 }])
      expect(decodeCallRecord(value)).toBeUndefined();
  });

  it('should read every unusable or implausible figure of a hostile record as zero', () => {
    const decoded = decodeCallRecord({
      agentName: 'worker',
      id: 12,
      modelCalls: MAX_COUNT_PER_RECORD + 1,
      compactions: -1,
      maskings: Number.NaN,
      discardedCompactions: 'many',
      droppedPreparations: -3,
      overLimitCalls: Infinity,
      rejectedCalls: '2',
      promptTokens: MAX_PLAUSIBLE_TOKENS,
      cachedPromptTokens: 10,
      outputTokens: 1.5,
      costUsd: MAX_COST_PER_RECORD_USD * 10,
      unpricedCalls: 5,
      summarizerCalls: MAX_CALLS + 1,
      summarizerPromptTokens: 100,
      summarizerCachedPromptTokens: 500,
      summarizerOutputTokens: -4,
      summarizerCostUsd: 'dear',
      unpricedSummarizerCalls: 2,
    });
    expect(decoded).toEqual({
      version: 1,
      id: undefined,
      agentName: 'worker',
      modelCalls: 0,
      compactions: 0,
      maskings: 0,
      discardedCompactions: 0,
      droppedPreparations: 0,
      overLimitCalls: 0,
      // A numeric string is a number that went through a lax store, as in the usage record.
      rejectedCalls: 2,
      retriedCalls: 0,
      budgetLines: 0,
      budgetLineTokens: 0,
      promptTokens: 0,
      // Never more cached tokens than prompt tokens.
      cachedPromptTokens: 0,
      outputTokens: 0,
      costUsd: 0,
      unpricedCalls: 0,
      // At most the calls one summary takes (more reads as none), never more of it cached than its prompt.
      summarizerCalls: 0,
      summarizerPromptTokens: 100,
      summarizerCachedPromptTokens: 100,
      summarizerOutputTokens: 0,
      summarizerCostUsd: 0,
      unpricedSummarizerCalls: 0,
    });
  });
});
