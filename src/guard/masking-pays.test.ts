import { describe, expect, it } from 'vitest';
import { MIN_CACHED_PREFIX_TOKENS } from '../cost/cache-terms.js';
import { expectedRereads, maskingPays, type MaskingTrade } from './masking-pays.js';

const trade = (overrides: Partial<MaskingTrade> = {}): MaskingTrade => ({
  before: 30_000,
  after: 20_000,
  rewritten: 5_000,
  calls: 5,
  cachedPriceRatio: 0.1,
  ...overrides,
});

describe('maskingPays', () => {
  it('should pay exactly when the cached reads saved cover the rewrite at the full price', () => {
    // 0.1 × (30,000 − 20,000) × 4.5 = 4,500 = 0.9 × 5,000: the break-even.
    expect(maskingPays(trade({ calls: 4.5 }))).toBe(true);
    expect(maskingPays(trade({ calls: 4.4 }))).toBe(false);
    // A shallower discount makes the cache cheaper to break: 0.5 × 10,000 × 1 ≥ 0.5 × 5,000.
    expect(maskingPays(trade({ calls: 1, cachedPriceRatio: 0.5 }))).toBe(true);
  });

  it('should always pay on a model with no cache discount, and never for nothing', () => {
    expect(maskingPays(trade({ cachedPriceRatio: 1, calls: 0.01, rewritten: 1e9 }))).toBe(true);
    expect(maskingPays(trade({ cachedPriceRatio: 1, after: 30_000 }))).toBe(false);
  });

  it('should bill a request under the shortest cacheable prefix whole, on every call', () => {
    const under = MIN_CACHED_PREFIX_TOKENS - 48;
    // 13,600 cached tokens read at 0.1 cost 1,360 a call: less than 2,000 sent whole.
    expect(maskingPays(trade({ before: 13_600, after: under, calls: 100 }))).toBe(false);
    // 30,000 cached cost 3,000 a call; 2,000 whole cost 2,000, and there is no cache left to break.
    expect(maskingPays(trade({ before: 30_000, after: under, calls: 1, rewritten: 1e9 }))).toBe(true);
    // Both under it: nothing is cached either way, every token saved is saved at the full price.
    expect(maskingPays(trade({ before: under, after: 100, calls: 0.01, rewritten: 1e9 }))).toBe(true);
  });
});

describe('expectedRereads', () => {
  const usage = { modelCalls: 30, invocations: 10, averageTurnTokens: 2_000 };

  it('should count the calls before the threshold at the calls per turn so far', () => {
    // (50,000 − 40,000) / 2,000 = 5 turns of 3 calls.
    expect(expectedRereads({ usage, threshold: 50_000, calibratedAfter: 40_000 })).toBe(15);
  });

  it('should expect no more turns than the session has had', () => {
    expect(expectedRereads({ usage, threshold: 1_000_000, calibratedAfter: 40_000 })).toBe(30);
    expect(
      expectedRereads({ usage: { ...usage, averageTurnTokens: undefined }, threshold: 0, calibratedAfter: 0 }),
    ).toBe(30);
  });

  it('should expect none at or over the threshold, and count a new session as one call', () => {
    expect(expectedRereads({ usage, threshold: 40_000, calibratedAfter: 45_000 })).toBe(0);
    const fresh = { modelCalls: 0, invocations: 0, averageTurnTokens: undefined };
    expect(expectedRereads({ usage: fresh, threshold: 50_000, calibratedAfter: 0 })).toBe(1);
  });
});
