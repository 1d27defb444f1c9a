import { describe, expect, it } from 'vitest';
import { decodeUsageRecord, EMPTY_USAGE, type UsageRecord } from '../usage/stored-usage.js';
import { encodeRecord } from '../state/codec.js';
import { billCall, billIncrease, billUsage, largestUsage, type BilledUsage } from './bill-usage.js';
import type { ModelPrice } from './price-table.js';

const FLASH = { input: 0.3, cachedInput: 0.03, output: 2.5 };

/** One call's reported usage added to `usage`, as the shell does. */
function addCall(usage: UsageRecord, reported: BilledUsage | undefined, price: ModelPrice | undefined): UsageRecord {
  return billUsage(usage, billCall(reported, price));
}

describe('billUsage', () => {
  it('should keep running totals of prompt, cached and output tokens and their cost', () => {
    const first = addCall(EMPTY_USAGE, { promptTokenCount: 10_000, candidatesTokenCount: 100 }, FLASH);
    const second = addCall(
      first,
      { promptTokenCount: 12_000, cachedContentTokenCount: 9_000, candidatesTokenCount: 50, thoughtsTokenCount: 30 },
      FLASH,
    );
    expect(second.billedPromptTokens).toBe(22_000);
    expect(second.billedCachedPromptTokens).toBe(9_000);
    expect(second.billedOutputTokens).toBe(180);
    expect(second.lastCachedPromptTokens).toBe(9_000);
    const expected = (10_000 * 0.3 + 100 * 2.5 + 3_000 * 0.3 + 9_000 * 0.03 + 80 * 2.5) / 1_000_000;
    expect(second.costUsd).toBeCloseTo(expected, 12);
  });

  it('should count tokens but not cost for a model without a price', () => {
    const billed = addCall(EMPTY_USAGE, { promptTokenCount: 1_000 }, undefined);
    expect(billed.billedPromptTokens).toBe(1_000);
    expect(billed.costUsd).toBeUndefined();
    expect(billed.unpricedCalls).toBe(1);
  });

  it('should leave the record alone without a plausible prompt count', () => {
    for (const reported of [
      undefined,
      {},
      { promptTokenCount: -5 },
      { promptTokenCount: '12' },
      { promptTokenCount: 1e12 },
    ]) {
      // Typed as ADK types it; a custom model may send anything.
      expect(addCall(EMPTY_USAGE, reported as BilledUsage | undefined, FLASH)).toBe(EMPTY_USAGE);
    }
  });

  it('should bill one call on its own, so that its figures can be recorded per call', () => {
    const bill = billCall(
      { promptTokenCount: 12_000, cachedContentTokenCount: 9_000, candidatesTokenCount: 50, thoughtsTokenCount: 30 },
      FLASH,
    );
    expect(bill).toMatchObject({ promptTokens: 12_000, cachedPromptTokens: 9_000, outputTokens: 80 });
    expect(bill?.costUsd).toBeCloseTo((3_000 * 0.3 + 9_000 * 0.03 + 80 * 2.5) / 1_000_000, 12);
    expect(billCall({ promptTokenCount: 1_000, cachedContentTokenCount: 5_000 }, undefined)).toEqual({
      promptTokens: 1_000,
      cachedPromptTokens: 1_000,
      outputTokens: 0,
      costUsd: undefined,
    });
  });

  it('should survive a JSON round trip through state', () => {
    const billed = addCall(
      EMPTY_USAGE,
      { promptTokenCount: 4_000, cachedContentTokenCount: 2_048, candidatesTokenCount: 10 },
      FLASH,
    );
    const decoded = decodeUsageRecord(JSON.parse(JSON.stringify(encodeRecord(billed))));
    expect(decoded.billedCachedPromptTokens).toBe(2_048);
    expect(decoded.costUsd).toBeCloseTo(billed.costUsd ?? 0, 15);
  });
});

describe("a streamed call's several reports", () => {
  // A stream's reports of one call, as ADK's aggregator hands them over: the figures of each chunk so far.
  const reports: BilledUsage[] = [
    { promptTokenCount: 12_000, cachedContentTokenCount: 9_000, candidatesTokenCount: 5 },
    { promptTokenCount: 12_000, cachedContentTokenCount: 9_000, candidatesTokenCount: 20, thoughtsTokenCount: 8 },
    { promptTokenCount: 12_000, cachedContentTokenCount: 9_000, candidatesTokenCount: 20, thoughtsTokenCount: 8 },
  ];

  /** Each report billed as the shell bills it: whole first, then what it adds. */
  function billAll(price: ModelPrice | undefined): UsageRecord {
    let usage = EMPTY_USAGE;
    let largest: BilledUsage | undefined;
    let before: ReturnType<typeof billCall>;
    for (const report of reports) {
      largest = largest ? largestUsage(largest, report) : report;
      const bill = billCall(largest, price);
      usage = billUsage(usage, before && bill ? billIncrease(bill, before) : bill);
      before = bill;
    }
    return usage;
  }

  it('should bill the call once, at its largest figures', () => {
    const once = addCall(EMPTY_USAGE, reports[2], FLASH);
    const streamed = billAll(FLASH);
    expect(streamed.billedPromptTokens).toBe(12_000);
    expect(streamed.billedCachedPromptTokens).toBe(9_000);
    expect(streamed.billedOutputTokens).toBe(28);
    expect(streamed.lastCachedPromptTokens).toBe(9_000);
    expect(streamed.costUsd).toBeCloseTo(once.costUsd ?? Number.NaN, 12);
  });

  it('should count an unpriced streamed call once', () => {
    expect(billAll(undefined)).toMatchObject({ billedPromptTokens: 12_000, billedOutputTokens: 28, unpricedCalls: 1 });
  });

  it('should add nothing for a report that adds nothing, and keep each figure at its largest', () => {
    const bill = billCall(reports[1], FLASH);
    expect(bill && billIncrease(bill, bill)).toBeUndefined();
    expect(largestUsage({ promptTokenCount: 10, candidatesTokenCount: 7 }, { promptTokenCount: 12 })).toEqual({
      promptTokenCount: 12,
      cachedContentTokenCount: undefined,
      candidatesTokenCount: 7,
      thoughtsTokenCount: undefined,
    });
  });
});
