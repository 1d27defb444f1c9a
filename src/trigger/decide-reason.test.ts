import { describe, expect, it } from 'vitest';
import { modelText, testPolicy, usageRecord, userText } from '../../test/support/builders.js';
import { computeBudget } from '../budget/compute-budget.js';
import { decideReason, type ReasonInput } from './decide-reason.js';

// A 10,000 window, calibrated: threshold 8,000, hard limit 9,500.
const BUDGET = computeBudget({ window: 10_000, calibrated: true });
const INPUT: ReasonInput = {
  contents: [userText('question'), modelText('answer'), userText('current')],
  covered: 0,
  policy: testPolicy(),
  usage: usageRecord(),
  window: 10_000,
  budget: BUDGET,
  fixedTokens: 500,
  estimate: 4_000,
  calibrated: 6_000,
  factor: 1.5,
};

describe('decideReason', () => {
  it('should not compact under the threshold', () => {
    expect(decideReason(INPUT).reason).toBeUndefined();
  });

  it('should compact for room at the threshold', () => {
    expect(decideReason({ ...INPUT, calibrated: 8_000 })).toMatchObject({ reason: 'threshold', heldBack: false });
  });

  it('should compact when forced, even under the threshold', () => {
    expect(decideReason({ ...INPUT, usage: usageRecord({ forceCompaction: true }) }).reason).toBe('forced');
  });

  it('should record what the compaction is tried against', () => {
    expect(decideReason(INPUT).conditions).toEqual({
      window: 10_000,
      fixedTokens: 500,
      correction: 1.5,
      contentTokens: 3_500,
    });
  });

  it('should hold back a compaction for room that was futile under the same conditions', () => {
    const futileCompaction = { window: 10_000, fixedTokens: 500, correction: 1.5, contentTokens: 3_500 };
    const decision = decideReason({ ...INPUT, calibrated: 8_000, usage: usageRecord({ futileCompaction }) });
    expect(decision).toMatchObject({ reason: 'threshold', heldBack: true });
  });

  it('should not hold back a forced compaction', () => {
    const futileCompaction = { window: 10_000, fixedTokens: 500, correction: 1.5, contentTokens: 3_500 };
    const decision = decideReason({ ...INPUT, usage: usageRecord({ futileCompaction, forceCompaction: true }) });
    expect(decision).toMatchObject({ reason: 'forced', heldBack: false });
  });

  it('should hold back a rejection-forced compaction when the fixed part alone is over the window, unless asked for', () => {
    // 7,000 heuristic tokens at 1.5: 10,500 calibrated, over the 10,000 window.
    const futileCompaction = { window: 10_000, fixedTokens: 7_000, correction: 1.5, contentTokens: 100 };
    const over = { ...INPUT, fixedTokens: 7_000, estimate: 7_100, calibrated: 10_650 };
    const usage = usageRecord({ futileCompaction, forceCompaction: true });
    expect(decideReason({ ...over, usage })).toMatchObject({ reason: 'forced', heldBack: true });
    expect(decideReason({ ...over, usage, manual: true })).toMatchObject({ reason: 'forced', heldBack: false });
    // The first attempt is made: nothing was futile yet.
    expect(decideReason({ ...over, usage: usageRecord({ forceCompaction: true }) }).heldBack).toBe(false);
  });

  it('should compact at the safety line on the sliding window, and drop it when futile', () => {
    const policy = testPolicy({ strategy: 'sliding-window', safetyRatio: 0.5 });
    expect(decideReason({ ...INPUT, policy }).reason).toBe('safety-ratio');
    const futileCompaction = { window: 10_000, fixedTokens: 500, correction: 1.5, contentTokens: 3_500 };
    expect(decideReason({ ...INPUT, policy, usage: usageRecord({ futileCompaction }) })).toMatchObject({
      reason: undefined,
      heldBack: true,
    });
  });

  it('should wait for another completed turn after a scheduled summary that was not kept', () => {
    const policy = testPolicy({ strategy: 'sliding-window', invocationThreshold: 1, overlapSize: 0 });
    const turns = (count: number) => [
      ...Array.from({ length: count }, (_, i) => [userText(`question ${i}`), modelText(`answer ${i}`)]).flat(),
      userText('current'),
    ];
    const twoDone = { ...INPUT, contents: turns(2), policy };
    expect(decideReason(twoDone).reason).toBe('schedule');
    expect(decideReason({ ...twoDone, usage: usageRecord({ scheduleHeldAt: 2 }) }).reason).toBeUndefined();
    const threeDone = { ...twoDone, contents: turns(3), usage: usageRecord({ scheduleHeldAt: 2 }) };
    expect(decideReason(threeDone).reason).toBe('schedule');
  });
});
