/**
 * One strategy's bill against a baseline's, over the scenarios both finish
 * without an overflow (issue 17's measure): the ratio of the totals, the
 * median of the per-scenario ratios, the same median per window size, and the
 * median ratio of the strategy's own cost floor (scenario-cost.ts) to the
 * baseline's bill, which bounds how low any strategy could go on those runs.
 */
import type { ScenarioResult } from './scenario-result.js';

type CostFigures = Pick<
  ScenarioResult,
  'name' | 'strategy' | 'window' | 'passed' | 'overflows' | 'costUsd' | 'costFloorUsd'
>;

export interface WindowCostRatio {
  readonly window: number;
  readonly scenarios: number;
  readonly medianRatio: number;
}

export interface CostComparison {
  readonly strategy: string;
  readonly baseline: string;
  /** Scenarios both finished without an overflow. */
  readonly scenarios: number;
  /** Sum of the strategy's costs over the sum of the baseline's. */
  readonly totalRatio: number;
  readonly medianRatio: number;
  /** Median of the strategy's cost floor over the baseline's cost. */
  readonly floorMedianRatio: number;
  readonly byWindow: readonly WindowCostRatio[];
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

const finished = (result: CostFigures): boolean => result.passed && result.overflows === 0 && result.costUsd > 0;

/** `undefined` when the two strategies share no scenario they both finish. */
export function compareCosts(
  results: readonly CostFigures[],
  strategy: string,
  baseline: string,
): CostComparison | undefined {
  const baselineRuns = new Map(results.filter((r) => r.strategy === baseline && finished(r)).map((r) => [r.name, r]));
  const pairs = results.flatMap((run) => {
    const base = run.strategy === strategy && finished(run) ? baselineRuns.get(run.name) : undefined;
    return base ? [{ run, base, ratio: run.costUsd / base.costUsd }] : [];
  });
  if (pairs.length === 0) return undefined;
  const windows = [...new Set(pairs.map((pair) => pair.run.window))].sort((a, b) => a - b);
  const sum = (values: number[]): number => values.reduce((total, value) => total + value, 0);
  return {
    strategy,
    baseline,
    scenarios: pairs.length,
    totalRatio: sum(pairs.map((pair) => pair.run.costUsd)) / sum(pairs.map((pair) => pair.base.costUsd)),
    medianRatio: median(pairs.map((pair) => pair.ratio)),
    floorMedianRatio: median(pairs.map((pair) => pair.run.costFloorUsd / pair.base.costUsd)),
    byWindow: windows.map((window) => {
      const ratios = pairs.filter((pair) => pair.run.window === window).map((pair) => pair.ratio);
      return { window, scenarios: ratios.length, medianRatio: median(ratios) };
    }),
  };
}

const times = (ratio: number): string => `${ratio.toFixed(2)}x`;

export function renderCostComparison(comparison: CostComparison): string {
  const windows = comparison.byWindow
    .map((entry) => `${entry.window.toLocaleString('en-US')}: ${times(entry.medianRatio)} (${entry.scenarios})`)
    .join(', ');
  return [
    `Cost of ${comparison.strategy} against ${comparison.baseline}, on the ${comparison.scenarios} scenarios both finish without an overflow:`,
    `  total ${times(comparison.totalRatio)}, median ${times(comparison.medianRatio)}; median by window: ${windows}`,
    `  floor of the ${comparison.strategy} runs (output, and each request's new contents once, uncached; a lower bound): median ${times(comparison.floorMedianRatio)} of ${comparison.baseline}'s cost`,
  ].join('\n');
}
