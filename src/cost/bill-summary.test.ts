import { describe, expect, it } from 'vitest';
import { decodeUsageRecord, EMPTY_USAGE } from '../usage/stored-usage.js';
import { encodeRecord } from '../state/codec.js';
import {
  billSummarizerCall,
  billSummarizerUsage,
  MAX_CALLS,
  recordedSummarizerBill,
  sumBills,
} from './bill-summary.js';

const FLASH = { input: 0.3, cachedInput: 0.03, output: 2.5 };

describe('billSummarizerCall', () => {
  it('should bill the cached part of a summary call at the cached price', () => {
    const bill = billSummarizerCall(
      { summarizerPromptTokens: 10_000, summarizerCachedPromptTokens: 8_000, summarizerOutputTokens: 400 },
      FLASH,
    );
    expect(bill).toEqual({
      calls: 1,
      promptTokens: 10_000,
      cachedPromptTokens: 8_000,
      outputTokens: 400,
      costUsd: (2_000 * 0.3 + 8_000 * 0.03 + 400 * 2.5) / 1e6,
    });
  });

  it('should count each call of a summary that took several (its window could not take what it covers at once)', () => {
    const bill = billSummarizerCall(
      { summarizerCalls: 3, summarizerPromptTokens: 9_000, summarizerOutputTokens: 600 },
      FLASH,
    );
    expect(bill?.calls).toBe(3);
    expect(billSummarizerCall({ summarizerCalls: 100, summarizerPromptTokens: 9_000 }, FLASH)?.calls).toBe(MAX_CALLS);
  });

  it('should count a call with no usage or no price, its cost unknown, and no call when none was made', () => {
    expect(billSummarizerCall({ fallbackReason: 'timeout' }, FLASH)?.costUsd).toBeUndefined();
    expect(billSummarizerCall({ summarizerOutputTokens: 100 }, FLASH)).toMatchObject({ outputTokens: 100 });
    expect(billSummarizerCall({ summarizerPromptTokens: 500 }, undefined)?.costUsd).toBeUndefined();
    expect(billSummarizerCall({ fallbackReason: 'unavailable' }, FLASH)).toBeUndefined();
  });

  it('should read back the cost a record was priced at, and never an unusable one', () => {
    const figures = { summarizerPromptTokens: 1_000, summarizerOutputTokens: 10 };
    expect(recordedSummarizerBill({ ...figures, summarizerCostUsd: 0.5 })?.costUsd).toBe(0.5);
    expect(recordedSummarizerBill({ ...figures, summarizerCostUsd: -1 })?.costUsd).toBeUndefined();
  });
});

describe('sumBills', () => {
  it("should add one call's summary bills (a compaction, and a retry's summary not kept), cost unknown if either's is", () => {
    const a = { calls: 1, promptTokens: 100, cachedPromptTokens: 10, outputTokens: 5, costUsd: 0.1 };
    const b = { calls: 2, promptTokens: 200, cachedPromptTokens: 0, outputTokens: 7, costUsd: 0.2 };
    expect(sumBills(a, b)).toEqual({
      calls: 3,
      promptTokens: 300,
      cachedPromptTokens: 10,
      outputTokens: 12,
      costUsd: 0.1 + 0.2,
    });
    expect(sumBills(a, { ...b, costUsd: undefined })?.costUsd).toBeUndefined();
    expect(sumBills(undefined, b)).toBe(b);
    expect(sumBills(undefined, undefined)).toBeUndefined();
  });
});

describe('billSummarizerUsage', () => {
  it("should keep the summarizer's totals apart from the agent's, its cost inside the total", () => {
    const priced = billSummarizerCall({ summarizerPromptTokens: 10_000, summarizerCachedPromptTokens: 8_000 }, FLASH);
    const unpriced = billSummarizerCall({ fallbackReason: 'failed' }, FLASH);
    const usage = billSummarizerUsage(billSummarizerUsage({ ...EMPTY_USAGE, costUsd: 1 }, priced), unpriced);
    expect(usage).toMatchObject({
      summarizerCalls: 2,
      summarizerPromptTokens: 10_000,
      summarizerCachedPromptTokens: 8_000,
      unpricedSummarizerCalls: 1,
    });
    expect(usage.billedPromptTokens).toBeUndefined();
    expect(usage.summarizerCostUsd).toBeCloseTo(priced?.costUsd ?? NaN, 15);
    expect(usage.costUsd).toBeCloseTo(1 + (priced?.costUsd ?? NaN), 15);
    // Stored and read back; a record written before these fields reads them as absent.
    expect(decodeUsageRecord(encodeRecord(usage))).toEqual(usage);
    expect(decodeUsageRecord(encodeRecord({ ...EMPTY_USAGE, costUsd: 1 })).summarizerCalls).toBeUndefined();
  });
});
