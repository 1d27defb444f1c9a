import { describe, expect, it } from 'vitest';
import { decodeUsageRecord, EMPTY_USAGE, type UsageRecord } from '../usage/stored-usage.js';
import { encodeRecord } from '../state/codec.js';
import { billCall, billUsage, type BilledUsage } from './bill-usage.js';
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
      expect(addCall(EMPTY_USAGE, reported, FLASH)).toBe(EMPTY_USAGE);
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
