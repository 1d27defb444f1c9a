/**
 * What reading back by pattern and answering a repeated read-only call saved, and what the budget
 * line cost, one line per guard run of a tool-work scenario (simulator/tool-work.ts), from the
 * runs themselves: the recall answer against paging the offloaded log to the line, and a run
 * against its twin with the feature off (the tool's real runs and the billed prompt tokens of
 * both; for the budget line, simulator/budget-line-report.ts).
 */
import { budgetLineComparisons, budgetLineText } from './budget-line-report.js';
import type { ScenarioResult } from './scenario-result.js';

const number = (value: number): string => value.toLocaleString('en-US');
const signed = (value: number): string => `${value >= 0 ? '' : '-'}${number(Math.abs(value))}`;

function recallLine(result: ScenarioResult): string | undefined {
  const work = result.toolWork;
  const paging = work?.pagingToLine;
  if (!work || !paging || work.recallResultTokens.length === 0) return undefined;
  const tokens = work.recallResultTokens.reduce((sum, value) => sum + value, 0);
  const calls = work.recallResultTokens.length;
  return (
    `${result.name} · ${result.strategy}: ${calls} recall call(s) by pattern, ${number(tokens)} tokens of answer; ` +
    `reading the offloaded log by 4,000-character pages to the line: ${number(paging.calls)} calls, ${number(paging.tokens)} tokens; ` +
    `saved ${number(paging.calls - calls)} tool calls and ${number(paging.tokens - tokens)} tokens · answer: "${work.answer}"`
  );
}

function storedLine(result: ScenarioResult, results: readonly ScenarioResult[]): string | undefined {
  const work = result.toolWork;
  const twinName = work?.offTwin;
  const twin = results.find((other) => other.name === twinName && other.strategy === result.strategy);
  if (!work || !twin?.toolWork || work.storedAnswerAges.length === 0) return undefined;
  const runs = (facts: NonNullable<ScenarioResult['toolWork']>): number =>
    Object.values(facts.toolRuns).reduce((sum, value) => sum + value, 0);
  const calls = Object.values(work.toolCalls).reduce((sum, value) => sum + value, 0);
  return (
    `${result.name} · ${result.strategy}: ${calls} tool calls, ${runs(work)} run, ${work.storedAnswerAges.length} answered from the stored result ` +
    `(${work.storedAnswerAges.map((age) => `${age} s`).join(', ')} old); feature off (${twin.name}): ${runs(twin.toolWork)} run; ` +
    `saved ${runs(twin.toolWork) - runs(work)} tool run(s), ${signed(twin.billedPromptTokens - result.billedPromptTokens)} billed prompt tokens ` +
    `(${number(result.billedPromptTokens)} against ${number(twin.billedPromptTokens)}) · answer: "${work.answer}"`
  );
}

/** One line per guard run of a tool-work scenario that read back, was answered from a stored result or sent the budget line. */
export function toolWorkSavedLines(results: readonly ScenarioResult[]): string[] {
  const budgetLines = budgetLineComparisons(results);
  const budgetLine = (result: ScenarioResult): string | undefined => {
    const row = budgetLines.find(
      (candidate) => candidate.scenario === result.name && candidate.strategy === result.strategy,
    );
    return row && budgetLineText(row);
  };
  return results
    .filter((result) => !result.baseline && result.toolWork)
    .map((result) => recallLine(result) ?? storedLine(result, results) ?? budgetLine(result))
    .filter((line): line is string => line !== undefined);
}

export function renderToolWorkSaved(results: readonly ScenarioResult[]): string {
  const lines = toolWorkSavedLines(results);
  if (lines.length === 0) return '';
  return [
    'The budget line, reading back by pattern and not fetching twice (issue 29), from these runs:',
    ...lines.map((line) => `  ${line}`),
  ].join('\n');
}

/** The same lines as an HTML section of the report. */
export function renderToolWorkSection(results: readonly ScenarioResult[], escape: (text: string) => string): string {
  const lines = toolWorkSavedLines(results);
  if (lines.length === 0) return '';
  return `<section class="tool-work" id="tool-work"><h2>The budget line, reading back by pattern and not fetching twice</h2><ul>${lines.map((line) => `<li>${escape(line)}</li>`).join('')}</ul></section>`;
}
