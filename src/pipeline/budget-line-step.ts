/**
 * The last step when `budgetLine` is on: the line the model sees, made from the figures of the
 * request as decided (its calibrated size, which holds the line's reserve; the budget; the
 * session's pace after this call), and counted on the call. The contents the summarizer got and
 * the state stored are those of the steps before: the line is never in either.
 */
import { budgetFigures, budgetLineContent, budgetLineText } from '../budget/budget-line.js';
import { estimateContentTokens } from '../estimate/estimate-content.js';
import type { GuardRequestInput, GuardRequestResult } from './contract.js';

export function withBudgetLine(input: GuardRequestInput, result: GuardRequestResult): GuardRequestResult {
  if (!input.budgetLine) return result;
  const { state } = result;
  const mask = state.mask === undefined ? input.mask : state.mask;
  const summary = state.summary === undefined ? input.summary : state.summary;
  const figures = budgetFigures({
    usedTokens: result.calibrated,
    window: result.budget.window,
    threshold: result.budget.threshold,
    hardLimit: result.budget.hardLimit,
    pace: state.usage,
    hidden: mask != null || summary != null || input.budgetLine.offloaded,
    recallToolName: input.recallToolName,
    pinToolName: input.budgetLine.pinTool,
  });
  const text = budgetLineText(figures, input.budgetLine.statusTool !== false);
  const tokens = estimateContentTokens(budgetLineContent(text), input.tokenizer);
  const usage = state.usage;
  return {
    ...result,
    state: {
      ...state,
      usage: { ...usage, budgetLines: usage.budgetLines + 1, budgetLineTokens: usage.budgetLineTokens + tokens },
    },
    counts: {
      ...result.counts,
      budgetLines: result.counts.budgetLines + 1,
      budgetLineTokens: result.counts.budgetLineTokens + tokens,
    },
    budgetLine: { text, tokens, figures },
  };
}
