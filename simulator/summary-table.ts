/**
 * The console summary: one row per scenario and strategy with the numbers
 * the issue asks for, then the totals that matter (ContextGuard failures and
 * baseline overflows).
 */
import type { ScenarioResult } from './scenario-result.js';

const COLUMNS = [
  'scenario',
  'strategy',
  'calls',
  'overflows',
  'compactions',
  'maskings',
  'summarizer',
  'waited',
  'peak',
  'mean',
  'billed tokens',
  'cached',
  'cost $',
  'result',
] as const;

function cells(result: ScenarioResult): string[] {
  return [
    result.name,
    result.strategy,
    String(result.modelCalls),
    String(result.overflows),
    String(result.compactions),
    String(result.maskings),
    String(result.summarizerCalls),
    String(result.turnsWaitedForSummary),
    `${Math.round(result.peakWindowUse * 100)}%`,
    `${Math.round(result.meanWindowUse * 100)}%`,
    result.billedPromptTokens.toLocaleString('en-US'),
    result.cachedPromptTokens.toLocaleString('en-US'),
    formatUsd(result.costUsd),
    result.passed ? 'pass' : result.baseline ? 'overflows (baseline)' : 'FAIL',
  ];
}

/** Dollars with four decimals: a simulated run costs cents. */
export function formatUsd(usd: number): string {
  return usd.toFixed(4);
}

export function renderSummaryTable(results: readonly ScenarioResult[]): string {
  const rows = [Array.from(COLUMNS), ...results.map(cells)];
  const widths = COLUMNS.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
  const line = (row: readonly string[]): string =>
    row
      .map((cell, i) => (i < 2 || i === row.length - 1 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  const out = [line(rows[0] ?? []), widths.map((width) => '-'.repeat(width)).join('  ')];
  let previous = '';
  for (const result of results) {
    if (previous && result.name !== previous) out.push('');
    previous = result.name;
    out.push(line(cells(result)));
  }
  return out.join('\n');
}

export function renderTotals(results: readonly ScenarioResult[]): string {
  const lines: string[] = [];
  const strategies = [...new Set(results.map((result) => result.strategy))];
  for (const strategy of strategies) {
    const list = results.filter((result) => result.strategy === strategy);
    const first = list[0];
    if (!first) continue;
    const overflows = list.reduce((sum, result) => sum + result.overflows, 0);
    const overflowing = list.filter((result) => result.overflows > 0).length;
    const failed = list.filter((result) => !result.passed).length;
    lines.push(
      first.baseline
        ? `${first.strategyLabel}: ${overflows} overflows in ${overflowing} of ${list.length} scenarios (baseline)`
        : `${first.strategyLabel}: ${list.length - failed} of ${list.length} scenarios passed, ${overflows} overflows`,
    );
  }
  return lines.join('\n');
}
