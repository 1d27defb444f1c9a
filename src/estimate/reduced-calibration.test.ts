import { describe, expect, it } from 'vitest';
import { calibrate } from './calibration.js';
import { calibrateReduced } from './reduced-calibration.js';

describe('calibrateReduced', () => {
  it('should give the request as measured its own calibrated figure', () => {
    const measured = { estimate: 30_342, calibrated: 28_522 };
    expect(calibrateReduced({ measured, estimate: 30_342, added: 0, factor: 1 })).toBe(28_522);
  });

  // The figures of the property failure (seed 2001669835): a fallback summary of ~2,390 tokens saved ~102 of the
  // estimate. Charged at the factor, the reduced request read ~30,240 against ~28,522; measured alike it is still
  // larger, because the summary is new text at the full factor and what it removed was counted at 0.94.
  it('should charge what stays at the rate the request was measured at and the new summary at the factor', () => {
    const measured = { estimate: 30_342, calibrated: 28_522 };
    const rate = 28_522 / 30_342;
    const after = calibrateReduced({ measured, estimate: 30_240, added: 2_390, factor: 1 });
    expect(after).toBe(Math.ceil((30_240 - 2_390) * rate + 2_390));
    expect(after).toBeGreaterThan(measured.calibrated);
    expect(after).toBeLessThan(30_240);
  });

  it('should agree with the calibration of a provider that counts the estimate as it is', () => {
    const usage = { realPromptTokens: 12_000, lastEstimate: 10_000 };
    const measured = { estimate: 11_000, calibrated: calibrate(11_000, usage) };
    const factor = 1.2;
    expect(calibrateReduced({ measured, estimate: 6_000, added: 1_000, factor })).toBe(Math.ceil(6_000 * factor));
  });

  it('should never charge the kept part above the factor, nor count a summary larger than the request', () => {
    const measured = { estimate: 1_000, calibrated: 4_000 };
    expect(calibrateReduced({ measured, estimate: 500, added: 0, factor: 2 })).toBe(1_000);
    expect(calibrateReduced({ measured, estimate: 500, added: 900, factor: 2 })).toBe(1_000);
  });
});
