import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calibrationState, PROPERTY_RUNS } from '../../test/support/arbitraries.js';
import {
  calibrate,
  clampCorrection,
  contentShare,
  correctionFactor,
  DEFAULT_CORRECTION,
  learnedFactor,
  MIN_CONTENT_SHARE,
  MIN_TRUSTED_RATIO,
} from './calibration.js';

const estimate = fc.integer({ min: 0, max: 2_000_000 });

describe('clampCorrection', () => {
  describe('values that are not ratios', () => {
    it('should treat NaN and infinities as the maximum (never undercount)', () => {
      expect(clampCorrection(Number.NaN)).toBe(5);
      expect(clampCorrection(Number.POSITIVE_INFINITY)).toBe(5);
    });
  });

  describe('ratios', () => {
    it('should clamp to [1, 5]', () => {
      expect(clampCorrection(0.3)).toBe(1);
      expect(clampCorrection(2.5)).toBe(2.5);
      expect(clampCorrection(7)).toBe(5);
    });
  });
});

describe('correctionFactor', () => {
  describe('unusable state', () => {
    it('should ignore zero, negative and non-finite counts', () => {
      for (const bad of [0, -100, Number.NaN, Number.POSITIVE_INFINITY]) {
        expect(correctionFactor({ realPromptTokens: bad, lastEstimate: 1_000 })).toEqual({
          factor: 1.5,
          calibrated: false,
        });
        expect(correctionFactor({ realPromptTokens: 1_000, lastEstimate: bad })).toEqual({
          factor: 1.5,
          calibrated: false,
        });
        expect(correctionFactor({ learnedCorrection: bad })).toEqual({ factor: 1.5, calibrated: false });
      }
    });

    it('should clamp a configured default into [1, 5]', () => {
      expect(correctionFactor({}, 0.5)).toEqual({ factor: 1, calibrated: false });
      expect(correctionFactor({}, 9)).toEqual({ factor: 5, calibrated: false });
    });
  });

  describe('before any real count', () => {
    it('should use 1.5 by default, uncalibrated', () => {
      expect(DEFAULT_CORRECTION).toBe(1.5);
      expect(correctionFactor({})).toEqual({ factor: 1.5, calibrated: false });
    });

    it('should use the configured default', () => {
      expect(correctionFactor({}, 2)).toEqual({ factor: 2, calibrated: false });
    });
  });

  describe('after a real count', () => {
    it('should use real / estimate of the same request', () => {
      // 3,000 / 2,000 = 1.5
      expect(correctionFactor({ realPromptTokens: 3_000, lastEstimate: 2_000 })).toEqual({
        factor: 1.5,
        calibrated: true,
      });
    });

    it('should clamp the ratio to [1, 5]', () => {
      // 1,000 / 2,000 = 0.5 → 1; 12,000 / 2,000 = 6 → 5
      expect(correctionFactor({ realPromptTokens: 1_000, lastEstimate: 2_000 }).factor).toBe(1);
      expect(correctionFactor({ realPromptTokens: 12_000, lastEstimate: 2_000 }).factor).toBe(5);
    });

    it('should apply the ratio of content tokens to a request whose framing share is smaller', () => {
      // A provider that counts texts only, at 1.3: 130 estimated tokens of which 18 are framing, 146 real.
      // 146 / 130 = 1.12 would estimate the next request, 5,000 tokens of which 50 are framing, 13% low;
      // 146 / (130 - 18) x (5,000 - 50) / 5,000 = 1.29.
      const pair = { realPromptTokens: 146, lastEstimate: 130, lastFraming: 18 };
      expect(correctionFactor(pair, 1.5, { estimate: 5_000, framing: 50 }).factor).toBeCloseTo(1.29, 2);
      // 5,000 x 1.2905 = 6,452.7, above the delta term 146 + (5,000 - 130) x 1.2905 = 6,430.9.
      expect(calibrate(5_000, pair, 1.5, 50)).toBe(6_453);
      // The same framing share, or an unknown one: the plain ratio.
      expect(correctionFactor(pair, 1.5, { estimate: 1_300, framing: 180 }).factor).toBeCloseTo(146 / 130, 9);
      expect(correctionFactor(pair).factor).toBeCloseTo(146 / 130, 9);
    });

    it('should prefer the current pair over the learned correction', () => {
      // 4,000 / 2,000 = 2, not the learned 3
      expect(correctionFactor({ realPromptTokens: 4_000, lastEstimate: 2_000, learnedCorrection: 3 }).factor).toBe(2);
    });

    it('should fall back to the learned correction when the pair was cleared by a compaction', () => {
      expect(correctionFactor({ learnedCorrection: 2.2 })).toEqual({ factor: 2.2, calibrated: true });
    });
  });
});

describe('calibrate', () => {
  describe('before any real count', () => {
    it('should scale by the default correction and round up', () => {
      // 1,000 × 1.5 = 1,500; 1,001 × 1.5 = 1,501.5 → 1,502
      expect(calibrate(1_000, {})).toBe(1_500);
      expect(calibrate(1_001, {})).toBe(1_502);
    });

    it('should scale by a learned correction', () => {
      // 1,000 × 2 = 2,000
      expect(calibrate(1_000, { learnedCorrection: 2 })).toBe(2_000);
    });
  });

  describe('with a real count', () => {
    it('should agree with real + growth × correction when the ratio is inside the clamp', () => {
      // factor 3,000 / 2,000 = 1.5; scaled 2,400 × 1.5 = 3,600; from real 3,000 + 400 × 1.5 = 3,600
      expect(calibrate(2_400, { realPromptTokens: 3_000, lastEstimate: 2_000 })).toBe(3_600);
    });

    it('should count from the real size when the clamp at 5 binds (delta accounting)', () => {
      // factor min(12,000 / 2,000, 5) = 5; scaled 2,200 × 5 = 11,000; from real 12,000 + 200 × 5 = 13,000
      expect(calibrate(2_200, { realPromptTokens: 12_000, lastEstimate: 2_000 })).toBe(13_000);
    });

    it('should count from the real count, not the estimate, when the provider counts fewer tokens', () => {
      // ratio 1,000 / 2,000 = 0.5, factor 1: the provider's count of what it saw, plus 500 appended × 1 (not 2,500)
      expect(calibrate(2_500, { realPromptTokens: 1_000, lastEstimate: 2_000 })).toBe(1_500);
      // The same request again: what the provider counted (not the estimate of 2,000)
      expect(calibrate(2_000, { realPromptTokens: 1_000, lastEstimate: 2_000 })).toBe(1_000);
    });

    it('should credit a shrink at the ratio when the provider counts fewer tokens', () => {
      // ratio 1,600 / 2,000 = 0.8: 500 estimated tokens removed are credited 400 (not 500, not the estimate 1,500)
      expect(calibrate(1_500, { realPromptTokens: 1_600, lastEstimate: 2_000 })).toBe(1_200);
    });

    it("should not trust a count far below the estimate (a provider leaving cached tokens out, another call's pair)", () => {
      // ratio 100 / 80,000: no tokenizer difference explains it; the request is counted as before, from the estimate.
      expect(calibrate(80_500, { realPromptTokens: 100, lastEstimate: 80_000 })).toBe(80_500);
      const atTheLimit = { realPromptTokens: 80_000 * MIN_TRUSTED_RATIO, lastEstimate: 80_000 };
      expect(calibrate(80_500, atTheLimit)).toBe(80_000 * MIN_TRUSTED_RATIO + 500);
    });

    it('should charge appended content at the factor of this request, at least 1, below a ratio of 1', () => {
      // ratio 950 / 1,000 = 0.95 over a last request 20% framing; this one 1% framing: factor 0.95 / 0.8 × 0.99
      const pair = { realPromptTokens: 950, lastEstimate: 1_000, lastFraming: 200 };
      const factor = (0.95 / 0.8) * 0.99;
      expect(correctionFactor(pair, 1.5, { estimate: 5_000, framing: 50 }).factor).toBeCloseTo(factor, 12);
      // 950 + 4,000 × 1.1756 = 5,652.5 (not 5,000 × 1.1756 = 5,878.1)
      expect(calibrate(5_000, pair, 1.5, 50)).toBe(Math.ceil(950 + 4_000 * factor));
    });

    it('should keep the rule of a ratio of at least 1 when the provider counts exactly the estimate', () => {
      // ratio 1: 2,500 × 1 = 2,500 either way; a shrink credited at 1: max(1,500, 2,000 − 500) = 1,500
      expect(calibrate(2_500, { realPromptTokens: 2_000, lastEstimate: 2_000 })).toBe(2_500);
      expect(calibrate(1_500, { realPromptTokens: 2_000, lastEstimate: 2_000 })).toBe(1_500);
    });

    it('should credit a shrink at factor 1 only', () => {
      // factor 1.5; scaled 1,500 × 1.5 = 2,250; from real 3,000 − 500 × 1 = 2,500
      expect(calibrate(1_500, { realPromptTokens: 3_000, lastEstimate: 2_000 })).toBe(2_500);
    });
  });

  describe('laws', () => {
    it('should never go below the heuristic estimate unless the provider counted the last request below it', () => {
      fc.assert(
        fc.property(estimate, calibrationState, (value, state) => {
          const { realPromptTokens: real, lastEstimate: last } = state;
          fc.pre(real === undefined || last === undefined || real >= last);
          expect(calibrate(value, state)).toBeGreaterThanOrEqual(value);
        }),
        PROPERTY_RUNS,
      );
    });

    it('should never go below the ratio of the last real count applied to the estimate', () => {
      fc.assert(
        fc.property(estimate, calibrationState, (value, state) => {
          const { realPromptTokens: real, lastEstimate: last } = state;
          const ratio = real !== undefined && last !== undefined ? Math.min(1, real / last) : 1;
          expect(calibrate(value, state)).toBeGreaterThanOrEqual(Math.floor(value * ratio));
        }),
        PROPERTY_RUNS,
      );
    });

    it('should never go below the real count while the request has not shrunk', () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 1_000_000 }),
          fc.nat(1_000_000),
          fc.integer({ min: 1, max: 5_000_000 }),
          (lastEstimate, growth, real) => {
            expect(calibrate(lastEstimate + growth, { realPromptTokens: real, lastEstimate })).toBeGreaterThanOrEqual(
              real,
            );
          },
        ),
        PROPERTY_RUNS,
      );
    });

    it('should never decrease when the estimate grows', () => {
      fc.assert(
        fc.property(estimate, fc.nat(100_000), calibrationState, (value, growth, state) => {
          expect(calibrate(value + growth, state)).toBeGreaterThanOrEqual(calibrate(value, state));
        }),
        PROPERTY_RUNS,
      );
    });

    it('should stay within the largest correction of the estimate when no real count pins it', () => {
      fc.assert(
        fc.property(
          estimate,
          fc.option(fc.double({ min: 0, max: 100, noNaN: true }), { nil: undefined }),
          (value, learnedCorrection) => {
            expect(calibrate(value, { learnedCorrection })).toBeLessThanOrEqual(Math.ceil(value * 5));
          },
        ),
        PROPERTY_RUNS,
      );
    });
  });
});

describe('learnedFactor', () => {
  it('should never be lower than real / estimate, nor more than that over MIN_CONTENT_SHARE', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2_000_000 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 0, max: 2_000_000 }),
        fc.option(fc.double({ min: MIN_CONTENT_SHARE, max: 1, noNaN: true }), { nil: undefined }),
        (real, estimate, framing, share) => {
          const factor = learnedFactor(real, estimate, framing, share);
          expect(factor).toBeGreaterThanOrEqual(clampCorrection(real / estimate));
          expect(factor).toBeLessThanOrEqual(clampCorrection(real / estimate / MIN_CONTENT_SHARE) * (1 + 1e-12));
        },
      ),
      PROPERTY_RUNS,
    );
  });

  it('should be the plain ratio when the request it is for has the same framing share', () => {
    expect(learnedFactor(3_000, 2_000, 200, contentShare(2_000, 200))).toBeCloseTo(1.5, 12);
    expect(learnedFactor(3_000, 2_000, 200, contentShare(20_000, 2_000))).toBeCloseTo(1.5, 12);
  });

  it('should ignore a framing that is not a positive number', () => {
    for (const framing of [undefined, 0, -50, Number.NaN, Number.POSITIVE_INFINITY])
      expect(learnedFactor(3_000, 2_000, framing, 1)).toBe(1.5);
  });
});
