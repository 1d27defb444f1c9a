import { describe, expect, it } from 'vitest';
import { EMPTY_USAGE } from './stored-usage.js';
import { retryPays, withDiscardedSummaries, withRetriedCall } from './retry-decision.js';

describe('retryPays', () => {
  it('should retry a request the new decision made smaller and fitting', () => {
    expect(retryPays({ rejectedEstimate: 9_000, estimate: 4_000, overLimit: false })).toBe(true);
  });

  it('should not retry a request that could not be made smaller', () => {
    expect(retryPays({ rejectedEstimate: 9_000, estimate: 9_000, overLimit: false })).toBe(false);
    expect(retryPays({ rejectedEstimate: 9_000, estimate: 9_500, overLimit: false })).toBe(false);
  });

  it('should not retry a request still over the hard limit after every reduction', () => {
    expect(retryPays({ rejectedEstimate: 9_000, estimate: 7_900, overLimit: true })).toBe(false);
  });

  it('should send again, even unchanged, a request whose rejection stated a size it cannot have', () => {
    expect(retryPays({ rejectedEstimate: 40, estimate: 40, overLimit: false, notAbout: true })).toBe(true);
    expect(retryPays({ rejectedEstimate: 40, estimate: 40, overLimit: true, notAbout: true })).toBe(false);
  });
});

describe('withRetriedCall', () => {
  it('should count one more retried call and change nothing else', () => {
    const usage = { ...EMPTY_USAGE, rejectedCalls: 3, retriedCalls: 2 };
    expect(withRetriedCall(usage)).toEqual({ ...usage, retriedCalls: 3 });
  });
});

describe('withDiscardedSummaries', () => {
  it('should count the summaries of a retry decision not taken as discarded', () => {
    const usage = { ...EMPTY_USAGE, discardedCompactions: 1 };
    expect(withDiscardedSummaries(usage, 2)).toEqual({ ...usage, discardedCompactions: 3 });
  });

  it('should leave the record as it is when the decision made no summary', () => {
    expect(withDiscardedSummaries(EMPTY_USAGE, 0)).toBe(EMPTY_USAGE);
  });
});
