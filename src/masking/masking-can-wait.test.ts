import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { growthAhead, maskingCanWait, type MaskingWaitInput } from './masking-can-wait.js';

// An 8k window: threshold 80%, hard limit 95%.
const wait = (overrides: Partial<MaskingWaitInput> = {}): MaskingWaitInput => ({
  calibrated: 6_600,
  masked: 4_300,
  threshold: 6_554,
  hardLimit: 7_782,
  growthAhead: 900,
  uncounted: 200,
  ...overrides,
});

describe('maskingCanWait', () => {
  it('should wait while a turn more still fits under the hard limit', () => {
    expect(maskingCanWait(wait())).toBe(true);
    // 6,600 + 1,183 = 7,783 > 7,782: the next call could pass the hard limit.
    expect(maskingCanWait(wait({ growthAhead: 1_183 }))).toBe(false);
    expect(maskingCanWait(wait({ growthAhead: 1_182 }))).toBe(true);
  });

  it('should keep a margin for what no count has seen beyond a turn, and not wait without a count', () => {
    // A pasted document no count has seen: its estimate may be off by more than the hard limit's margin (review 39).
    // 6,600 + 900 + 0.5 x (1,465 − 900) = 7,782.5 > 7,782.
    expect(maskingCanWait(wait({ uncounted: 1_465 }))).toBe(false);
    expect(maskingCanWait(wait({ uncounted: 1_464 }))).toBe(true);
    expect(maskingCanWait(wait({ uncounted: 8_000 }))).toBe(false);
    expect(maskingCanWait(wait({ uncounted: undefined }))).toBe(false);
  });

  it('should not wait when a masking at the hard limit could fall short of the threshold', () => {
    // 5,400 + (7,782 − 6,600) = 6,582 > 6,554: the growth until then, were it all text, would need a summary.
    expect(maskingCanWait(wait({ masked: 5_400 }))).toBe(false);
    expect(maskingCanWait(wait({ masked: 5_372 }))).toBe(true);
  });

  it('should not wait without a pace, or for a masking that saves nothing', () => {
    expect(maskingCanWait(wait({ growthAhead: undefined }))).toBe(false);
    expect(maskingCanWait(wait({ growthAhead: 0 }))).toBe(false);
    expect(maskingCanWait(wait({ masked: 6_600 }))).toBe(false);
  });

  it('should leave every request it lets through under the hard limit, and a later masking enough', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200_000 }),
        fc.integer({ min: 1, max: 200_000 }),
        fc.integer({ min: 1, max: 50_000 }),
        fc.integer({ min: 1, max: 50_000 }),
        (hardLimit, calibrated, masked, growth) => {
          const threshold = Math.floor(hardLimit * 0.8);
          const input = wait({ calibrated, masked, threshold, hardLimit, growthAhead: growth, uncounted: growth / 2 });
          if (!maskingCanWait(input)) return;
          expect(calibrated + growth).toBeLessThanOrEqual(hardLimit);
          expect(masked + (hardLimit - calibrated)).toBeLessThanOrEqual(threshold);
        },
      ),
    );
  });
});

describe('growthAhead', () => {
  it("should take the larger of a turn's growth and its rise, and nothing without a pace", () => {
    expect(growthAhead({ averageTurnTokens: 400, averagePeakRise: 900 })).toBe(900);
    expect(growthAhead({ averageTurnTokens: 1_200, averagePeakRise: 900 })).toBe(1_200);
    expect(growthAhead({ averageTurnTokens: 400 })).toBe(400);
    expect(growthAhead({})).toBeUndefined();
    expect(growthAhead({ averageTurnTokens: 0, averagePeakRise: 0 })).toBeUndefined();
  });
});
