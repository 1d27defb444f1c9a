import { describe, expect, it } from 'vitest';
import { MIN_CACHED_PREFIX_TOKENS } from '../cost/cache-terms.js';
import {
  elisionLimits,
  expectedLoopRereads,
  expectedRereads,
  maskingPays,
  type MaskingTrade,
} from './pays-for-cache.js';

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

  it('should pay both ways for a request just over the shortest cacheable prefix, which the provider may count under it', () => {
    // The fifty-fourth outside trial: masked to an estimate just over 2,048, sent 2,018, and the next call uncached.
    const near = MIN_CACHED_PREFIX_TOKENS + 50;
    // Cached, 0.1 × (9,000 − 2,098) × 20 ≥ 0.9 × 1,000; sent whole, 900 − 2,098 a call saves nothing.
    expect(maskingPays(trade({ before: 9_000, after: near, calls: 20, rewritten: 1_000 }))).toBe(false);
    expect(
      maskingPays(trade({ before: 9_000, after: MIN_CACHED_PREFIX_TOKENS * 1.2, calls: 20, rewritten: 1_000 })),
    ).toBe(true);
    // 30,000 cached cost 3,000 a call: more than 2,098 whole, so it pays either way.
    expect(maskingPays(trade({ before: 30_000, after: near, calls: 20, rewritten: 1_000 }))).toBe(true);
  });
});

describe('expectedRereads', () => {
  const usage = { modelCalls: 30, invocations: 10, averageTurnTokens: 2_000 };

  it('should count the calls before the threshold at the calls per turn so far', () => {
    // (50,000 − 40,000) / 2,000 = 3 turns of 3 calls, before the 5 half the session's turns give.
    expect(expectedRereads({ usage, threshold: 50_000, calibratedAfter: 44_000 })).toBe(9);
  });

  it('should expect no more than half as many turns again as the session has had', () => {
    // 10 turns so far: 5 more, of 3 calls each.
    expect(expectedRereads({ usage, threshold: 1_000_000, calibratedAfter: 40_000 })).toBe(15);
    expect(
      expectedRereads({ usage: { ...usage, averageTurnTokens: undefined }, threshold: 0, calibratedAfter: 0 }),
    ).toBe(15);
  });

  it('should count at least this call, at or over the threshold and in a new session', () => {
    expect(expectedRereads({ usage, threshold: 40_000, calibratedAfter: 45_000 })).toBe(1);
    const fresh = { modelCalls: 0, invocations: 0, averageTurnTokens: undefined };
    expect(expectedRereads({ usage: fresh, threshold: 50_000, calibratedAfter: 0 })).toBe(1);
  });

  it("should stop at the sliding window's next scheduled compaction", () => {
    // 2 turns to the schedule, before the threshold's 5: 6 calls.
    expect(expectedRereads({ usage, threshold: 50_000, calibratedAfter: 40_000, turnsToSchedule: 2 })).toBe(6);
    expect(expectedRereads({ usage, threshold: 50_000, calibratedAfter: 40_000, turnsToSchedule: 0 })).toBe(1);
  });
});

describe('expectedLoopRereads', () => {
  const loop = { callsInTurn: 30, growthPerCall: 1_000, threshold: 1_000_000, calibratedAfter: 10_000 };

  it('should count this call and a third as many again as the loop has made', () => {
    expect(expectedLoopRereads(loop)).toBe(11);
    expect(expectedLoopRereads({ ...loop, callsInTurn: 3 })).toBe(2);
  });

  it('should stop at the threshold, at the growth per call so far', () => {
    expect(expectedLoopRereads({ ...loop, threshold: 15_000 })).toBe(6);
    expect(expectedLoopRereads({ ...loop, threshold: 5_000 })).toBe(1);
    expect(expectedLoopRereads({ ...loop, growthPerCall: 0, threshold: 5_000 })).toBe(11);
  });
});

describe('elisionLimits', () => {
  const policy = { invocationThreshold: 5, overlapSize: 2, maxCompactions: 10 };
  const base = { policy, usage: { compactions: 0 }, threshold: 80_000, safetyLine: 70_000 };

  it('should be the threshold alone for the threshold strategy', () => {
    expect(elisionLimits({ ...base, sliding: undefined })).toEqual({ threshold: 80_000 });
  });

  it("should add the sliding window's safety line and the turns to its schedule", () => {
    // The schedule summarizes once 5 + 2 turns completed: 4 done, 3 to go.
    expect(elisionLimits({ ...base, sliding: { completedTurns: 4 } })).toEqual({
      threshold: 70_000,
      turnsToSchedule: 3,
    });
    expect(elisionLimits({ ...base, sliding: { completedTurns: 9 } }).turnsToSchedule).toBe(0);
  });

  it('should drop the schedule once the agent has made maxCompactions', () => {
    expect(elisionLimits({ ...base, usage: { compactions: 10 }, sliding: { completedTurns: 4 } })).toEqual({
      threshold: 70_000,
    });
  });
});
