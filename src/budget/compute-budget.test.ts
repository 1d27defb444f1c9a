import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROPERTY_RUNS } from '../../test/support/arbitraries.js';
import { computeBudget, defaultBuffer } from './compute-budget.js';

const budgetInput = fc.record({
  window: fc.integer({ min: 1_024, max: 2_000_000 }),
  bufferRatio: fc.option(fc.double({ min: 0.01, max: 0.9, noNaN: true }), { nil: undefined }),
  outputReserve: fc.option(fc.nat(500_000), { nil: undefined }),
  calibrated: fc.boolean(),
  uncalibratedThresholdRatio: fc.option(fc.double({ min: 0.11, max: 1, noNaN: true }), { nil: undefined }),
  hardLimitRatio: fc.option(fc.double({ min: 0.51, max: 1, noNaN: true }), { nil: undefined }),
});

describe('defaultBuffer', () => {
  describe('windows up to 200k tokens', () => {
    it('should keep 20% of the window free', () => {
      // 20% of 8,000 = 1,600; of 200,000 = 40,000
      expect(defaultBuffer(8_000)).toBe(1_600);
      expect(defaultBuffer(200_000)).toBe(40_000);
    });

    it('should use a configured ratio', () => {
      // 10% of 100,000 = 10,000
      expect(defaultBuffer(100_000, 0.1)).toBe(10_000);
    });
  });

  describe('windows over 200k tokens', () => {
    it('should keep 20,000 tokens free whatever the ratio', () => {
      expect(defaultBuffer(200_001)).toBe(20_000);
      expect(defaultBuffer(1_048_576, 0.5)).toBe(20_000);
    });
  });
});

describe('computeBudget', () => {
  describe('inputs outside the validated range', () => {
    it('should keep the threshold at 1 or more when the buffer is not smaller than the window', () => {
      // threshold = max(1, 8,000 - 9,000); hard limit = min(95% of 8,000 = 7,600, 8,000 - 0) = 7,600
      expect(computeBudget({ window: 8_000, bufferTokens: 9_000, calibrated: true })).toEqual({
        window: 8_000,
        buffer: 9_000,
        threshold: 1,
        hardLimit: 7_600,
      });
    });

    it('should ignore a negative output reserve', () => {
      // 128,000 - 20% (25,600) = 102,400
      expect(computeBudget({ window: 128_000, outputReserve: -5_000, calibrated: true }).threshold).toBe(102_400);
    });
  });

  describe('calibrated estimates', () => {
    it('should set the threshold 20,000 below a 1M window', () => {
      // threshold = 1,048,576 - 20,000 = 1,028,576; hard limit = max(threshold, min(floor(0.95 × 1,048,576) = 996,147, 1,048,576))
      expect(computeBudget({ window: 1_048_576, calibrated: true })).toEqual({
        window: 1_048_576,
        buffer: 20_000,
        threshold: 1_028_576,
        hardLimit: 1_028_576,
      });
    });

    it('should set the threshold 20% below a 128k window and the hard limit at 95%', () => {
      // threshold = 128,000 - 25,600 = 102,400; hard limit = min(121,600, 128,000) = 121,600
      expect(computeBudget({ window: 128_000, calibrated: true })).toEqual({
        window: 128_000,
        buffer: 25_600,
        threshold: 102_400,
        hardLimit: 121_600,
      });
    });

    it('should use an explicit buffer', () => {
      // 8,000 - 5,000 = 3,000
      expect(computeBudget({ window: 8_000, bufferTokens: 5_000, calibrated: true }).threshold).toBe(3_000);
    });

    it('should use a configured hard-limit ratio', () => {
      // min(90% of 128,000 = 115,200, 128,000) = 115,200
      expect(computeBudget({ window: 128_000, hardLimitRatio: 0.9, calibrated: true }).hardLimit).toBe(115_200);
    });
  });

  describe('uncalibrated estimates', () => {
    it('should cap the threshold at half the window', () => {
      // min(102,400, 50% of 128,000 = 64,000) = 64,000; the hard limit does not move
      expect(computeBudget({ window: 128_000, calibrated: false })).toEqual({
        window: 128_000,
        buffer: 25_600,
        threshold: 64_000,
        hardLimit: 121_600,
      });
    });

    it('should use a configured cap', () => {
      // min(102,400, 70% of 128,000 = 89,600) = 89,600
      expect(computeBudget({ window: 128_000, calibrated: false, uncalibratedThresholdRatio: 0.7 }).threshold).toBe(
        89_600,
      );
    });
  });

  describe('output reserve', () => {
    it('should use the reserve when it is larger than the buffer', () => {
      // threshold = 128,000 - max(25,600, 30,000) = 98,000; hard limit = max(98,000, min(121,600, 98,000)) = 98,000
      expect(computeBudget({ window: 128_000, outputReserve: 30_000, calibrated: true })).toMatchObject({
        threshold: 98_000,
        hardLimit: 98_000,
      });
    });

    it('should cap a reserve larger than half the window at half the window', () => {
      // reserve min(100,000, 64,000) = 64,000; threshold = 128,000 - 64,000 = 64,000
      expect(computeBudget({ window: 128_000, outputReserve: 100_000, calibrated: true })).toMatchObject({
        threshold: 64_000,
        hardLimit: 64_000,
      });
    });
  });

  describe('laws', () => {
    it('should order threshold <= hard limit <= window', () => {
      fc.assert(
        fc.property(budgetInput, (input) => {
          const budget = computeBudget(input);
          expect(budget.threshold).toBeLessThanOrEqual(budget.hardLimit);
          expect(budget.hardLimit).toBeLessThanOrEqual(budget.window);
        }),
        PROPERTY_RUNS,
      );
    });

    it('should keep the buffer free below the threshold', () => {
      fc.assert(
        fc.property(budgetInput, (input) => {
          const budget = computeBudget(input);
          expect(budget.threshold).toBeLessThanOrEqual(Math.max(1, budget.window - budget.buffer));
        }),
        PROPERTY_RUNS,
      );
    });

    it('should never raise the threshold when the estimate is uncalibrated', () => {
      fc.assert(
        fc.property(budgetInput, (input) => {
          expect(computeBudget({ ...input, calibrated: false }).threshold).toBeLessThanOrEqual(
            computeBudget({ ...input, calibrated: true }).threshold,
          );
        }),
        PROPERTY_RUNS,
      );
    });

    it('should never lower the threshold when the window grows (default buffer ratio)', () => {
      fc.assert(
        fc.property(budgetInput, fc.nat(500_000), (input, growth) => {
          // A custom ratio below 10% makes the 20,000-token buffer of windows over 200k the larger one: not monotone by design.
          const { bufferRatio: _ignored, ...rest } = input;
          expect(computeBudget({ ...rest, window: input.window + growth }).threshold).toBeGreaterThanOrEqual(
            computeBudget(rest).threshold,
          );
        }),
        PROPERTY_RUNS,
      );
    });
  });
});
