import { describe, expect, it } from 'vitest';
import { tiktokenTokenizer } from '../estimate/tokenizer.js';
import { budgetFigures, budgetLineText, longestBudgetLine } from './budget-line.js';

const SESSION = { usedTokens: 41_200, window: 128_000, threshold: 102_400, averageTurnTokens: 6_000 };

describe('budgetFigures', () => {
  it('should count whole turns to the threshold and call a compaction near within one', () => {
    const far = budgetFigures({ ...SESSION, hidden: false, recallToolName: 'recall_history' });
    expect(far).toMatchObject({ turnsLeft: 10, compactionNear: false, percentUsed: 32, recallTool: undefined });
    const near = budgetFigures({ ...SESSION, usedTokens: 95_000, hidden: true, recallToolName: 'recall_history' });
    expect(near).toMatchObject({ turnsLeft: 1, compactionNear: true, recallTool: 'recall_history' });
  });

  it('should call a compaction near from the last tenth before the threshold while the pace is unknown', () => {
    const figures = (usedTokens: number) =>
      budgetFigures({ ...SESSION, usedTokens, averageTurnTokens: undefined, hidden: false, recallToolName: undefined });
    expect(figures(92_159)).toMatchObject({ turnsLeft: undefined, compactionNear: false });
    expect(figures(92_160).compactionNear).toBe(true);
  });
});

describe('budgetLineText', () => {
  it('should stay short: the o200k tokens README states', () => {
    const plain = budgetLineText(budgetFigures({ ...SESSION, hidden: false, recallToolName: undefined }));
    const recall = budgetLineText(budgetFigures({ ...SESSION, hidden: true, recallToolName: 'recall_history' }));
    // Printed for README's "The budget the model sees": `npx vitest run src/budget/budget-line.test.ts`.
    console.log(
      `budget line: ${tiktokenTokenizer.count(plain)} o200k tokens; with the recall hint ${tiktokenTokenizer.count(recall)}`,
    );
    expect(tiktokenTokenizer.count(plain)).toBeLessThanOrEqual(40);
    expect(tiktokenTokenizer.count(recall)).toBeLessThanOrEqual(64);
    expect(tiktokenTokenizer.count(longestBudgetLine())).toBeGreaterThan(tiktokenTokenizer.count(recall));
  });
});
