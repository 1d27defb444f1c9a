import { describe, expect, it } from 'vitest';
import { summaryCorrection } from './summary-correction.js';

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
