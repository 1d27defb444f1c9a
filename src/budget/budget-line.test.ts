import { describe, expect, it } from 'vitest';
import { tiktokenTokenizer } from '../estimate/tokenizer.js';
import { budgetFigures, budgetLineText, longestBudgetLine, turnsLeftAt } from './budget-line.js';

const SESSION = { usedTokens: 41_200, window: 128_000, threshold: 102_400, pace: { averageTurnTokens: 6_000 } };

describe('budgetFigures', () => {
  it('should count whole turns to the threshold and call a compaction near within one', () => {
    const far = budgetFigures({ ...SESSION, hidden: false, recallToolName: 'recall_history' });
    expect(far).toMatchObject({ turnsLeft: 10, compactionNear: false, percentUsed: 32, recallTool: undefined });
    const near = budgetFigures({ ...SESSION, usedTokens: 95_000, hidden: true, recallToolName: 'recall_history' });
    expect(near).toMatchObject({ turnsLeft: 1, compactionNear: true, recallTool: 'recall_history' });
  });

  it('should call a compaction near from the last tenth before the threshold while the pace is unknown', () => {
    const figures = (usedTokens: number) =>
      budgetFigures({ ...SESSION, usedTokens, pace: {}, hidden: false, recallToolName: undefined });
    expect(figures(92_159)).toMatchObject({ turnsLeft: undefined, compactionNear: false });
    expect(figures(92_160).compactionNear).toBe(true);
  });
});

describe('budgetFigures past the threshold', () => {
  it('should state the hard limit as where the guard acts, once a request past the threshold was sent as it was', () => {
    const hardLimit = 121_600;
    // Under the threshold the hard limit changes nothing.
    expect(budgetFigures({ ...SESSION, hardLimit, hidden: false, recallToolName: undefined })).toMatchObject({
      threshold: 102_400,
      turnsLeft: 10,
    });
    // Past it, with nothing reduced (a masking that waits): 3 turns of 6,000 to 121,600, not "0 turns left".
    const waiting = budgetFigures({
      ...SESSION,
      usedTokens: 103_000,
      hardLimit,
      hidden: false,
      recallToolName: undefined,
    });
    expect(waiting).toMatchObject({ threshold: hardLimit, turnsLeft: 3, compactionNear: false });
    expect(turnsLeftAt(103_000, 102_400, SESSION.pace, hardLimit)).toBe(3);
    expect(turnsLeftAt(103_000, 102_400, SESSION.pace)).toBe(0);
  });
});

describe('turnsLeftAt', () => {
  // A turn starts at 6,400, its tool result lifts it 3,500, and that result is masked a turn later: 250 a turn stays.
  const pace = { averageTurnTokens: 250, averagePeakRise: 3_500, turnStartCalibrated: 6_400 };

  it("should count from the turn's expected peak, not from its start", () => {
    // From the start alone: (12,800 - 6,400) / 250 = 25 turns; every turn's peak is 3,500 above its start.
    expect(turnsLeftAt(6_400, 12_800, pace)).toBe(11);
    expect(turnsLeftAt(6_400, 12_800, { ...pace, averagePeakRise: undefined })).toBe(25);
  });

  it('should say the same within a turn while its result is the usual size, and less after a larger one', () => {
    expect(turnsLeftAt(9_900, 12_800, pace)).toBe(11);
    expect(turnsLeftAt(12_000, 12_800, pace)).toBe(3);
  });

  it('should count from the request when the guard made it smaller than the turn began', () => {
    expect(turnsLeftAt(4_000, 12_800, pace)).toBe(21);
  });

  it('should be none at the threshold, and unknown without a pace', () => {
    expect(turnsLeftAt(9_400, 12_800, { ...pace, turnStartCalibrated: 9_400 })).toBe(0);
    expect(turnsLeftAt(6_400, 12_800, { averagePeakRise: 3_500 })).toBeUndefined();
  });
});

describe('budgetLineText', () => {
  it('should name the pin tool the request declares while a compaction is near, and only then', () => {
    // The fifty-fifth outside trial: a loop's plan was gone at its first compaction; pin_context was declared.
    const input = { ...SESSION, hidden: false, recallToolName: undefined, pinToolName: 'pin_context' };
    expect(budgetLineText(budgetFigures({ ...input, usedTokens: 95_000 }))).toContain(
      'compaction near: pin_context what must outlive it.',
    );
    expect(budgetLineText(budgetFigures(input))).not.toContain('pin_context');
    expect(budgetLineText(budgetFigures({ ...input, usedTokens: 95_000, pinToolName: undefined }))).toContain(
      ', compaction near.',
    );
  });

  it('should stay short: the o200k tokens README states', () => {
    const plain = budgetLineText(budgetFigures({ ...SESSION, hidden: false, recallToolName: undefined }));
    const recall = budgetLineText(budgetFigures({ ...SESSION, hidden: true, recallToolName: 'recall_history' }));
    const near = { ...SESSION, usedTokens: 95_000, hidden: true, recallToolName: 'recall_history' };
    const pinned = budgetLineText(budgetFigures({ ...near, pinToolName: 'pin_context' }));
    // Printed for README's "The budget the model sees": `npx vitest run src/budget/budget-line.test.ts`.
    console.log(
      `budget line: ${tiktokenTokenizer.count(plain)} o200k tokens; with the recall hint ${tiktokenTokenizer.count(recall)}`,
    );
    expect(tiktokenTokenizer.count(plain)).toBeLessThanOrEqual(40);
    expect(tiktokenTokenizer.count(recall)).toBeLessThanOrEqual(64);
    console.log(`near a compaction, with the recall and pin hints: ${tiktokenTokenizer.count(pinned)} o200k tokens`);
    expect(tiktokenTokenizer.count(pinned)).toBeLessThanOrEqual(80);
    expect(tiktokenTokenizer.count(longestBudgetLine())).toBeGreaterThan(tiktokenTokenizer.count(pinned));
    const long = budgetLineText(budgetFigures({ ...near, pinToolName: 'p'.repeat(65) }));
    // A name longer than the reserve holds is not named (else the line could outgrow its reserve).
    expect(long).not.toContain('p'.repeat(65));
    expect(long).toContain(', compaction near.');
  });
});
