import { describe, expect, it } from 'vitest';
import { recordReportedUsage } from './provider-feedback.js';
import { EMPTY_USAGE, type UsageRecord } from './stored-usage.js';

/** The usage record after the provider reported `counts` for requests the guard estimated at `estimates`. */
function afterReports(estimates: readonly number[], counts: readonly number[]): UsageRecord {
  return estimates.reduce<UsageRecord>(
    (usage, sentEstimate, i) =>
      recordReportedUsage({ ...usage, sentEstimate }, { promptTokenCount: counts[i] ?? 0 }, 'ollama/llama3.1:8b'),
    EMPTY_USAGE,
  );
}

describe('a count that stops growing', () => {
  it('should not calibrate from the same count on requests that grew, and count them in a row', () => {
    const usage = afterReports([5_000, 6_500, 8_000, 9_500, 11_000], [6_000, 7_800, 8_192, 8_192, 8_192]);
    expect(usage.samePromptReports).toBe(2);
    // The pair and the correction are those of the last growing count.
    expect(usage.lastEstimate).toBe(8_000);
    expect(usage.learnedCorrection).toBeCloseTo(8_192 / 8_000);
  });

  it('should start again from a count that grew, and take the same count on the same request as honest', () => {
    expect(afterReports([5_000, 6_500, 8_000], [6_000, 6_000, 9_600]).samePromptReports).toBeUndefined();
    const resent = afterReports([5_000, 5_050, 5_050], [6_000, 6_000, 6_000]);
    expect(resent.samePromptReports).toBeUndefined();
    expect(resent.lastEstimate).toBe(5_050);
  });
});
