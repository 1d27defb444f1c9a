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

/** `calls` requests growing by `share` each, from `from`. */
const growing = (from: number, share: number, calls: number) =>
  Array.from({ length: calls }, (_, i) => Math.round(from * (1 + share) ** i));

describe('a count that stops growing', () => {
  it('should not calibrate from the same count on requests that grew, and count them once grown a tenth', () => {
    const usage = afterReports([5_000, 6_500, 8_000, 9_500, 11_000], [6_000, 7_800, 8_192, 8_192, 8_192]);
    expect(usage.samePromptReports).toBe(2);
    // The pair and the correction are those of the last growing count.
    expect(usage.lastEstimate).toBe(8_000);
    expect(usage.learnedCorrection).toBeCloseTo(8_192 / 8_000);
  });

  it('should add up short turns that each grow the request a little (review 36: the correction slid to 1.00)', () => {
    const estimates = growing(6_000, 0.015, 40);
    const usage = afterReports(
      estimates,
      estimates.map((estimate) => Math.min(Math.round(estimate * 1.2), 8_192)),
    );
    expect(usage.samePromptReports).toBeGreaterThanOrEqual(3);
    expect(usage.learnedCorrection).toBeGreaterThan(1.15);
  });

  it('should take a count that varies a little below the cut as not grown (whole old messages dropped)', () => {
    const estimates = growing(6_000, 0.05, 20);
    const cut = [8_050, 8_150, 8_100, 8_190, 8_120];
    const counts = estimates.map((estimate, i) => Math.min(Math.round(estimate * 1.2), cut[i % cut.length] ?? 8_100));
    const usage = afterReports(estimates, counts);
    expect(usage.samePromptReports).toBeGreaterThanOrEqual(3);
    expect(usage.learnedCorrection).toBeGreaterThan(1.1);
  });

  it('should start again from a count that grew, and pair the same count on the same request as honest', () => {
    expect(afterReports([5_000, 6_500, 8_000], [6_000, 6_000, 9_600]).samePromptReports).toBeUndefined();
    const resent = afterReports([5_000, 5_000, 5_000], [6_000, 6_000, 6_000]);
    expect(resent.samePromptReports).toBeUndefined();
    expect(resent.learnedCorrection).toBeCloseTo(1.2);
  });

  it('should pair an honest count that grew a little with a short turn (CI: a 1% band held 0.1% off)', () => {
    const usage = afterReports([9_000, 9_012], [9_869, 9_883]);
    expect(usage.realPromptTokens).toBe(9_883);
    expect(usage.lastEstimate).toBe(9_012);
  });

  it('should count nothing for an honest provider whose counts grow with short turns', () => {
    const estimates = growing(6_000, 0.015, 40);
    const usage = afterReports(
      estimates,
      estimates.map((estimate) => Math.round(estimate * 1.2)),
    );
    expect(usage.samePromptReports).toBeUndefined();
    expect(usage.lastEstimate).toBe(estimates.at(-1));
  });
});

describe('a count that falls', () => {
  it("should take a deep dip under the cut for a cut's, not pair it (review 38: whole messages dropped)", () => {
    const estimates = growing(6_000, 0.05, 30);
    const dips = [7_350, 8_190, 7_700, 8_050, 7_500];
    const counts = estimates.map((estimate, i) => Math.min(Math.round(estimate * 1.2), dips[i % dips.length] ?? 8_000));
    const usage = afterReports(estimates, counts);
    expect(usage.samePromptReports).toBeGreaterThanOrEqual(3);
  });

  it('should pair an honest count that grew by a fifth though the estimate grew far more (review 38: a scanned PDF)', () => {
    const usage = afterReports([10_000, 12_000, 268_000], [12_480, 15_060, 16_620]);
    expect(usage.samePromptReports).toBeUndefined();
    expect(usage.realPromptTokens).toBe(16_620);
  });

  it("should pair another model's count whatever it is", () => {
    const first = recordReportedUsage({ ...EMPTY_USAGE, sentEstimate: 6_000 }, { promptTokenCount: 7_800 }, 'model-a');
    const next = recordReportedUsage({ ...first, sentEstimate: 7_000 }, { promptTokenCount: 7_800 }, 'model-b');
    expect(next.lastEstimate).toBe(7_000);
  });
});

describe('a count right after a reduction', () => {
  // The pair a compaction cleared: 12,000 counted for an estimate of 10,000; the compacted request is estimated 5,000.
  const reduced: UsageRecord = {
    ...EMPTY_USAGE,
    countBeforeReduction: 12_000,
    estimateBeforeReduction: 10_000,
    sentEstimate: 5_000,
  };

  it("should not pair the count before the reduction, repeated, with the smaller request's estimate", () => {
    for (const stale of [12_000]) {
      const usage = recordReportedUsage(reduced, { promptTokenCount: stale }, 'proxy');
      expect(usage.realPromptTokens).toBeUndefined();
      expect(usage.learnedCorrection).toBeUndefined();
    }
  });

  it('should pair a count that shrank with the request, one of a request larger than before the reduction, and any other count', () => {
    // Larger than before for a smaller estimate: kept content that counts denser than what the summary replaced, or a
    // provider lagging its count a call (the unreduced request's count: paired, a documented gap, review 40 #3).
    expect(recordReportedUsage(reduced, { promptTokenCount: 12_500 }, 'proxy').realPromptTokens).toBe(12_500);
    const shrank = recordReportedUsage(reduced, { promptTokenCount: 6_000 }, 'proxy');
    expect(shrank.learnedCorrection).toBeCloseTo(1.2);
    expect(shrank.countBeforeReduction).toBeUndefined();
    const larger = recordReportedUsage({ ...reduced, sentEstimate: 11_000 }, { promptTokenCount: 13_200 }, 'proxy');
    expect(larger.learnedCorrection).toBeCloseTo(1.2);
  });
});
