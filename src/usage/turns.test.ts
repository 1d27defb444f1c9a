import { describe, expect, it } from 'vitest';
import { trackTurn, type UsageTurns } from './turns.js';

/** The calls in order, each after the one before (whose size the record keeps as `lastCalibrated`). */
const calls = (sizes: ReadonlyArray<readonly [string, number]>): UsageTurns =>
  sizes.reduce<UsageTurns>(
    (usage, [invocation, size], at) => trackTurn(usage, invocation, size, size, sizes[at - 1]?.[1]),
    { invocations: 0 },
  );

describe('trackTurn', () => {
  it("should keep each turn's rise from its first request to its largest, and the growth start to start", () => {
    const usage = calls([
      ['t1', 6_000],
      ['t1', 9_500],
      ['t1', 9_600],
      ['t2', 6_250],
      ['t2', 9_750],
      ['t3', 6_500],
    ]);
    expect(usage.invocations).toBe(3);
    expect(usage.turnStartCalibrated).toBe(6_500);
    expect(usage.turnPeakCalibrated).toBe(6_500);
    expect(usage.averageTurnTokens).toBe(250);
    // 3,600 for the first turn, then 3,500 at the average's weight.
    expect(usage.averagePeakRise).toBeCloseTo(3_600 * 0.7 + 3_500 * 0.3);
  });

  it('should take a turn that compacted by the largest request it sent before', () => {
    const usage = calls([
      ['t1', 9_000],
      ['t1', 12_700],
      ['t1', 4_000],
      ['t2', 4_300],
    ]);
    expect(usage.averagePeakRise).toBe(3_700);
    expect(usage.averageTurnTokens).toBeUndefined();
  });

  it("should grow by what arrived at a turn's first call that was reduced for room, not by what was sent", () => {
    // The thirty-fifth outside trial: a merge agent fed ~28k tokens a turn on 16k compacted on every call, and the
    // growth of what it sent (its summary's) told it ~94 turns were left.
    let usage: UsageTurns = { invocations: 0 };
    for (const [turn, sent] of [2_100, 2_200, 2_300, 2_400].entries())
      usage = trackTurn(usage, `t${turn}`, sent, sent + 28_000);
    expect(usage.averageTurnTokens).toBeCloseTo(28_100, -1);
    // Where the call sent what came (nothing reduced), both are one figure, as before.
    expect(
      calls([
        ['t1', 6_000],
        ['t2', 6_250],
      ]).averageTurnTokens,
    ).toBe(250);
  });

  it("should keep a turn's largest request through a smaller one, and count the turn's calls", () => {
    const usage = trackTurn(
      calls([
        ['t1', 6_000],
        ['t1', 9_000],
      ]),
      't1',
      8_000,
    );
    expect(usage).toMatchObject({ turnPeakCalibrated: 9_000, turnCalls: 3 });
    expect(trackTurn(usage, 't2', 8_100)).toMatchObject({ turnCalls: 1 });
  });

  it('should average what one step of a tool loop adds, by what arrived over what the step before sent', () => {
    // A loop of 1,000-token results; the fourth step was masked for room: it grew by what arrived, 1,000.
    let usage = calls([
      ['t1', 3_000],
      ['t1', 4_000],
      ['t1', 5_000],
    ]);
    expect(usage.averageStepTokens).toBe(1_000);
    usage = trackTurn(usage, 't1', 2_500, 6_000, 5_000);
    expect(usage.averageStepTokens).toBe(1_000);
    usage = trackTurn(usage, 't1', 4_500, 4_500, 2_500);
    expect(usage.averageStepTokens).toBeCloseTo(1_000 * 0.7 + 2_000 * 0.3);
    // Without what the call before sent (a record of an older version), no step is measured.
    expect(trackTurn(usage, 't1', 9_000).averageStepTokens).toBe(usage.averageStepTokens);
    // A new turn's first call is no step: the average stays, what the turn adds goes to averageTurnTokens.
    expect(trackTurn(usage, 't2', 9_000).averageStepTokens).toBe(usage.averageStepTokens);
  });

  it('should keep no average rise of zero tokens, which the stored record would read back as none', () => {
    const usage = calls([
      ['t1', 6_000],
      ['t2', 6_100],
    ]);
    expect(usage.averagePeakRise).toBeUndefined();
    expect(usage.averageTurnTokens).toBe(100);
  });
});
