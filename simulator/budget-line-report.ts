/**
 * What the budget line cost, one row per guard run of a budget-line scenario against its twin with
 * the line off (same tools, messages and seed): the lines sent and their tokens per call (from
 * `status()`), the billed prompt tokens and USD of both, and whether the guard's compactions and
 * maskings changed. The report's issue-29 section prints it; `--json` carries the rows.
 */
import type { ScenarioResult } from './scenario-result.js';

export interface BudgetLineComparison {
  readonly scenario: string;
  readonly strategy: string;
  readonly twin: string;
  readonly agentCalls: number;
  /** `status().budgetLines`. */
  readonly linesSent: number;
  /** `status().budgetLineTokens / budgetLines`: the guard's estimate of one line. */
  readonly tokensPerLine: number;
  /** The model quoted the percentage of each line it was sent. */
  readonly quotedEveryLine: boolean;
  readonly billedPromptTokens: number;
  readonly twinBilledPromptTokens: number;
  readonly costUsd: number;
  readonly twinCostUsd: number;
  readonly compactions: number;
  readonly twinCompactions: number;
  readonly maskings: number;
  readonly twinMaskings: number;
}

/** One row per guard run with a budget line sent and its twin in `results`. */
export function budgetLineComparisons(results: readonly ScenarioResult[]): BudgetLineComparison[] {
  return results.flatMap((result): BudgetLineComparison[] => {
    const facts = result.toolWork?.budgetLine;
    const twin = results.find((other) => other.name === result.toolWork?.offTwin && other.strategy === result.strategy);
    const linesSent = facts?.status?.budgetLines ?? 0;
    if (result.baseline || !facts || !twin || linesSent === 0) return [];
    return [
      {
        scenario: result.name,
        strategy: result.strategy,
        twin: twin.name,
        agentCalls: facts.agentCalls,
        linesSent,
        tokensPerLine: (facts.status?.budgetLineTokens ?? 0) / linesSent,
        quotedEveryLine:
          facts.percentsQuoted.length === facts.agentCalls &&
          facts.percentsQuoted.join() === facts.percentsShown.join(),
        billedPromptTokens: result.billedPromptTokens,
        twinBilledPromptTokens: twin.billedPromptTokens,
        costUsd: result.costUsd,
        twinCostUsd: twin.costUsd,
        compactions: result.compactions,
        twinCompactions: twin.compactions,
        maskings: result.maskings,
        twinMaskings: twin.maskings,
      },
    ];
  });
}

const number = (value: number): string => value.toLocaleString('en-US');
const signed = (value: number, digits = 0): string =>
  `${value >= 0 ? '+' : '-'}${Math.abs(value).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })}`;
const percent = (value: number, of: number): string => (of > 0 ? `${signed(((value - of) / of) * 100, 1)}%` : 'n/a');

function reductionChange(row: BudgetLineComparison): string {
  if (row.compactions === row.twinCompactions && row.maskings === row.twinMaskings)
    return `compactions and maskings unchanged (${row.compactions}, ${row.maskings})`;
  return `compactions ${row.compactions} against ${row.twinCompactions}, maskings ${row.maskings} against ${row.twinMaskings}`;
}

export function budgetLineText(row: BudgetLineComparison): string {
  return (
    `${row.scenario} · ${row.strategy}: ${number(row.linesSent)} budget lines in ${number(row.agentCalls)} calls, ` +
    `${row.tokensPerLine.toFixed(1)} tokens a line (status()), the model quoted ${row.quotedEveryLine ? 'every' : 'NOT every'} line's percentage; ` +
    `line off (${row.twin}): billed prompt tokens ${number(row.billedPromptTokens)} against ${number(row.twinBilledPromptTokens)} ` +
    `(${signed(row.billedPromptTokens - row.twinBilledPromptTokens)}, ${percent(row.billedPromptTokens, row.twinBilledPromptTokens)}), ` +
    `$${row.costUsd.toFixed(4)} against $${row.twinCostUsd.toFixed(4)} (${percent(row.costUsd, row.twinCostUsd)}); ${reductionChange(row)}`
  );
}
