import { describe, expect, it } from 'vitest';
import { summaryCorrection, summaryCountTeaches } from './summary-correction.js';

const counted = { promptTokens: 3_000, requestTokens: 2_000 };

describe('summaryCorrection', () => {
  it("should teach the ratio of one counted summary request of the agent's own model", () => {
    expect(summaryCorrection(counted, true)).toBeCloseTo(1.5);
  });

  it('should teach nothing from another model, no summary, an unmeasured request or a missing count', () => {
    expect(summaryCorrection(counted, false)).toBeUndefined();
    expect(summaryCorrection(undefined, true)).toBeUndefined();
    expect(summaryCorrection({ ...counted, requestTokens: undefined }, true)).toBeUndefined();
    expect(summaryCorrection({ ...counted, promptTokens: undefined }, true)).toBeUndefined();
    expect(summaryCorrection({ ...counted, promptTokens: 0 }, true)).toBeUndefined();
  });
});

describe('summaryCorrection of an absurd count', () => {
  it('should teach nothing from a count that is no integer, or far from the estimate either way', () => {
    for (const promptTokens of [Number.NaN, Number.POSITIVE_INFINITY, 99_999_999, 10_001, 0.5, 1, -5, 199])
      expect(summaryCorrection({ promptTokens, requestTokens: 2_000 }, true)).toBeUndefined();
    // Within the band: five times the estimate, and a tenth of it (taught as the least correction, 1).
    expect(summaryCorrection({ promptTokens: 10_000, requestTokens: 2_000 }, true)).toBe(5);
    expect(summaryCorrection({ promptTokens: 200, requestTokens: 2_000 }, true)).toBe(1);
  });
});

describe('summaryCountTeaches', () => {
  it("should measure a summary request only where its count could teach the agent's correction", () => {
    expect(summaryCountTeaches({})).toBe(true);
    expect(summaryCountTeaches({ learnedCorrection: 1.3, correctionFromSummary: true })).toBe(true);
    expect(summaryCountTeaches({ learnedCorrection: 1.3 })).toBe(false);
    expect(summaryCountTeaches({ realPromptTokens: 5_000 })).toBe(false);
  });
});
