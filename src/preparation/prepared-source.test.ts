import { describe, expect, it } from 'vitest';
import type { PreparationClaim } from './prepared-record.js';
import { preparedSource, remoteWaitDeadline } from './prepared-source.js';

const claim: PreparationClaim = {
  id: 'c1',
  startedAt: 1_000,
  previous: undefined,
  watermark: { covered: 3, anchor: 'a' },
};

describe('preparedSource', () => {
  it('should follow the claim in state: this process, the stored summary, or another replica still at work', () => {
    expect(preparedSource(claim, undefined, 'c1')).toBe('local');
    expect(preparedSource(claim, 'c1', undefined)).toBe('stored');
    expect(preparedSource(claim, 'c1', 'c0')).toBe('stored');
    expect(preparedSource(claim, 'c0', 'c0')).toBe('remote');
    expect(preparedSource(claim, undefined, undefined)).toBe('remote');
  });

  it('should apply nothing of another replica without a claim, and a claimless preparation of this process', () => {
    expect(preparedSource(undefined, 'c1', undefined)).toBe('none');
    expect(preparedSource(undefined, undefined, null)).toBe('local');
    expect(preparedSource(undefined, undefined, 'c1')).toBe('local');
  });
});

describe('remoteWaitDeadline', () => {
  it('should wait the bound for a claim that may still be at work, and not at all for one of a replica that is gone', () => {
    expect(remoteWaitDeadline(claim, 2_000, 500, 60_000)).toBe(2_500);
    expect(remoteWaitDeadline(claim, 1_000 + 60_500, 500, 60_000)).toBe(62_000);
    expect(remoteWaitDeadline(claim, 1_000 + 60_501, 500, 60_000)).toBe(61_501);
  });
});
