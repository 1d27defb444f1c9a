import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROPERTY_RUNS } from '../../test/support/arbitraries.js';
import { bufferAboveHardLimit, bufferTooLarge, computeBudget, defaultBuffer } from './compute-budget.js';

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
  describe('a bufferTokens written for a larger window', () => {
    it('should use the default buffer of the window when bufferTokens is more than half of it', () => {
      // The README's old 50,000 on a 32,000 window: threshold was max(1, -18,000) = 1, every call compacted.
      // buffer = 20% of 32,000 = 6,400; threshold = 25,600; hard limit = 95% = 30,400
      expect(computeBudget({ window: 32_000, bufferTokens: 50_000, calibrated: true })).toEqual({
        window: 32_000,
        buffer: 6_400,
        threshold: 25_600,
        hardLimit: 30_400,
      });
      // 9,000 of 8,000: buffer 1,600, threshold 6,400
      expect(computeBudget({ window: 8_000, bufferTokens: 9_000, calibrated: true }).threshold).toBe(6_400);
    });

    it('should keep a bufferTokens of exactly half the window', () => {
      // 32,000 - 16,000 = 16,000
      expect(computeBudget({ window: 32_000, bufferTokens: 16_000, calibrated: true }).threshold).toBe(16_000);
      // 16,001 is over half: the default 6,400
      expect(computeBudget({ window: 32_000, bufferTokens: 16_001, calibrated: true }).buffer).toBe(6_400);
    });

    it('should say which bufferTokens were written for a larger window', () => {
      expect(bufferTooLarge(50_000, 32_000)).toBe(true);
      expect(bufferTooLarge(16_000, 32_000)).toBe(false);
      expect(bufferTooLarge(undefined, 32_000)).toBe(false);
    });
  });

  describe('inputs outside the validated range', () => {
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
      // 8,000 - 3,000 = 5,000
      expect(computeBudget({ window: 8_000, bufferTokens: 3_000, calibrated: true }).threshold).toBe(5_000);
    });

    it('should use a configured hard-limit ratio', () => {
      // min(90% of 128,000 = 115,200, 128,000) = 115,200
      expect(computeBudget({ window: 128_000, hardLimitRatio: 0.9, calibrated: true }).hardLimit).toBe(115_200);
    });
  });

  describe('a hard-limit ratio below the threshold', () => {
    it('should cap the threshold at a configured hard limit', () => {
      // threshold would be 8,000 - 100 = 7,900; hard limit = 60% of 8,000 = 4,800: no request knowingly above it
      expect(computeBudget({ window: 8_000, bufferTokens: 100, hardLimitRatio: 0.6, calibrated: true })).toEqual({
        window: 8_000,
        buffer: 100,
        threshold: 4_800,
        hardLimit: 4_800,
      });
      // The default buffer's threshold (80%) too
      expect(computeBudget({ window: 128_000, hardLimitRatio: 0.6, calibrated: true }).threshold).toBe(76_800);
    });

    it("should say a bufferTokens conflicts with it only when the cap lowered the budget's own threshold", () => {
      const repro = { window: 8_000, bufferTokens: 100, outputReserve: 2_000, hardLimitRatio: 0.9 };
      // The reserve sets the threshold: 8,000 - max(100, 2,000) = 6,000, at most the cap min(7,200, 6,000): nothing lowered.
      expect(computeBudget({ ...repro, calibrated: true })).toMatchObject({ threshold: 6_000, hardLimit: 6_000 });
      expect(bufferAboveHardLimit(repro)).toBeUndefined();
      // 8,000 - max(100, 1,000) = 7,000 over 80% (6,400): the reserve's threshold is lowered by 600.
      expect(bufferAboveHardLimit({ ...repro, outputReserve: 1_000, hardLimitRatio: 0.8 })).toEqual({
        bufferTokens: 100,
        outputReserve: 1_000,
        threshold: 7_000,
        hardLimit: 6_400,
      });
      expect(bufferAboveHardLimit({ window: 8_000, bufferTokens: 100, hardLimitRatio: 0.6 })).toEqual({
        bufferTokens: 100,
        outputReserve: undefined,
        threshold: 7_900,
        hardLimit: 4_800,
      });
    });

    it('should raise the default hard limit to the threshold instead', () => {
      // window 600,000: threshold 580,000 (20,000 buffer) over 95% (570,000)
      expect(computeBudget({ window: 600_000, calibrated: true })).toMatchObject({
        threshold: 580_000,
        hardLimit: 580_000,
      });
    });
  });

  describe('uncalibrated estimates', () => {
    it('should cap the threshold at half the window', () => {
      // min(102,400, 50% of 128,000 = 64,000) = 64,000; the hard limit does not move; 102,400 once calibrated
      expect(computeBudget({ window: 128_000, calibrated: false })).toEqual({
        window: 128_000,
        buffer: 25_600,
        threshold: 64_000,
        hardLimit: 121_600,
        calibratedThreshold: 102_400,
      });
    });

    it('should state the calibrated threshold beside a capped one, the one a calibrated budget has', () => {
      for (const input of [
        { window: 16_000 },
        { window: 128_000, bufferTokens: 90_000 },
        { window: 8_000, hardLimitRatio: 0.6 },
      ]) {
        const before = computeBudget({ ...input, calibrated: false });
        const after = computeBudget({ ...input, calibrated: true });
        expect(after.calibratedThreshold).toBeUndefined();
        expect(before.calibratedThreshold ?? before.threshold).toBe(after.threshold);
      }
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

    it('should never send a request knowingly above a configured hard-limit ratio', () => {
      fc.assert(
        fc.property(budgetInput, (input) => {
          if (input.hardLimitRatio === undefined) return;
          const budget = computeBudget(input);
          expect(budget.hardLimit).toBeLessThanOrEqual(Math.floor(input.window * input.hardLimitRatio));
          expect(budget.threshold).toBeLessThanOrEqual(budget.hardLimit);
        }),
        PROPERTY_RUNS,
      );
    });

    it('should report a conflict exactly when a set hard-limit ratio lowers the calibrated threshold', () => {
      fc.assert(
        fc.property(budgetInput, fc.nat(1_000_000), (input, bufferTokens) => {
          const withBuffer = { ...input, bufferTokens, calibrated: true };
          const conflict = bufferAboveHardLimit(withBuffer);
          const capped = computeBudget(withBuffer).threshold;
          const asked = computeBudget({ ...withBuffer, hardLimitRatio: undefined }).threshold;
          const expected = bufferTooLarge(bufferTokens, input.window) || capped >= asked;
          expect(conflict === undefined).toBe(expected);
          if (conflict)
            expect({ threshold: conflict.threshold, hardLimit: conflict.hardLimit }).toEqual({
              threshold: asked,
              hardLimit: capped,
            });
        }),
        PROPERTY_RUNS,
      );
    });

    it('should keep a threshold of at least half the window before the uncalibrated cap, whatever the buffer', () => {
      fc.assert(
        fc.property(budgetInput, fc.nat(3_000_000), (input, bufferTokens) => {
          const { window } = input;
          const calibrated = computeBudget({ ...input, bufferTokens, outputReserve: undefined, calibrated: true });
          expect(calibrated.threshold).toBeGreaterThanOrEqual(
            Math.min(Math.floor(window / 2), window - defaultBuffer(window, input.bufferRatio)),
          );
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
