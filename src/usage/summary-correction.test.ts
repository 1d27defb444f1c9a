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

describe('summaryCountTeaches', () => {
  it("should measure a summary request only where its count could teach the agent's correction", () => {
    expect(summaryCountTeaches({})).toBe(true);
    expect(summaryCountTeaches({ learnedCorrection: 1.3, correctionFromSummary: true })).toBe(true);
    expect(summaryCountTeaches({ learnedCorrection: 1.3 })).toBe(false);
    expect(summaryCountTeaches({ realPromptTokens: 5_000 })).toBe(false);
  });
});
