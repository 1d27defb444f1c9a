/**
 * The simulator's cost figures: a run's bill and its floor (scenario-cost.ts),
 * and the comparison of one strategy's bills with a baseline's over the
 * scenarios both finish (cost-comparison.ts), which `npm run simulate` prints.
 */
import { describe, expect, it } from 'vitest';
import { compareCosts, renderCostComparison } from '../../simulator/cost-comparison.js';
import type { CallRecord } from '../../simulator/call-record.js';
import { scenarioCost } from '../../simulator/scenario-cost.js';

// Gemini 2.5 Flash list prices, USD per million tokens (src/cost/price-table.ts).
const INPUT = 0.3 / 1e6;
const CACHED = 0.03 / 1e6;
const OUTPUT = 2.5 / 1e6;

function call(
  promptTokens: number,
  cachedPromptTokens: number,
  appendedTokens: number,
  rejected = false,
  rawTokens = appendedTokens,
): CallRecord {
  return { agent: 'worker', promptTokens, cachedPromptTokens, appendedTokens, rawTokens, rejected } as CallRecord;
}

describe('scenarioCost', () => {
  it('should bill cached tokens at the cached price, and floor each call at its output and new contents once', () => {
    const calls = [call(3_000, 0, 3_000), call(3_500, 3_000, 500), call(9_000, 0, 5_500, true)];
    const cost = scenarioCost(calls, 50, []);
    expect(cost.cachedPromptTokens).toBe(3_000);
    expect(cost.costUsd).toBeCloseTo(3_000 * INPUT + 500 * INPUT + 3_000 * CACHED + 2 * 50 * OUTPUT, 12);
    // The rejected call's new contents are in the conversation all the same; its output is not.
    expect(cost.costFloorUsd).toBeCloseTo(9_000 * INPUT + 2 * 50 * OUTPUT, 12);
  });

  it('should count uncached, cached, output and summarizer parts apart, summing to the bill', () => {
    const summary = { promptTokens: 4_000, cachedPromptTokens: 0, outputTokens: 300, rejected: false };
    const cost = scenarioCost([call(3_000, 0, 3_000), call(5_000, 3_000, 2_000)], 50, [summary]);
    expect(cost.uncachedPromptTokens).toBe(5_000);
    expect(cost.cachedPromptTokens).toBe(3_000);
    expect(cost.outputTokens).toBe(100);
    expect(cost.summarizerOutputTokens).toBe(300);
    expect(cost.uncachedUsd).toBeCloseTo(5_000 * INPUT, 12);
    expect(cost.cachedUsd).toBeCloseTo(3_000 * CACHED, 12);
    expect(cost.outputUsd).toBeCloseTo(100 * OUTPUT, 12);
    expect(cost.summarizerInputUsd).toBeCloseTo(4_000 * INPUT, 12);
    expect(cost.summarizerOutputUsd).toBeCloseTo(300 * OUTPUT, 12);
    expect(cost.costUsd).toBeCloseTo(5_000 * INPUT + 3_000 * CACHED + 400 * OUTPUT + 4_000 * INPUT, 12);
  });

  it("should bill a summary's cached prefix at the cached price and count it apart (the agent's own model reads its prefix)", () => {
    const summary = { promptTokens: 4_000, cachedPromptTokens: 3_500, outputTokens: 300, rejected: false };
    const rejected = { promptTokens: 9_000, cachedPromptTokens: 0, outputTokens: 0, rejected: true };
    const cost = scenarioCost([call(1_000, 0, 1_000)], 50, [summary, rejected]);
    expect(cost.summarizerPromptTokens).toBe(4_000);
    expect(cost.summarizerCachedPromptTokens).toBe(3_500);
    expect(cost.summarizerInputUsd).toBeCloseTo(500 * INPUT + 3_500 * CACHED, 12);
    // The agents' cached figure is theirs alone.
    expect(cost.cachedPromptTokens).toBe(0);
    expect(cost.costUsd).toBeCloseTo(1_000 * INPUT + 50 * OUTPUT + 500 * INPUT + 3_500 * CACHED + 300 * OUTPUT, 12);
  });

  it("should floor each agent's first request whole (system instruction and tools) and later ones at their new contents", () => {
    const first = { ...call(3_400, 0, 3_000, false, 3_400) };
    const other = { ...call(2_000, 0, 1_600, false, 2_000), agent: 'router' };
    const cost = scenarioCost([first, call(3_900, 3_400, 500, false, 3_900), other], 50, []);
    expect(cost.costFloorUsd).toBeCloseTo((3_400 + 500 + 2_000) * INPUT + 3 * 50 * OUTPUT, 12);
  });

  it('should bill summarizer calls in the cost and never in the floor', () => {
    const summary = { promptTokens: 4_000, cachedPromptTokens: 0, outputTokens: 300, rejected: false } as const;
    const cost = scenarioCost([call(1_000, 0, 1_000)], 50, [summary]);
    expect(cost.summarizerPromptTokens).toBe(4_000);
    expect(cost.costUsd - cost.costFloorUsd).toBeCloseTo(4_000 * INPUT + 300 * OUTPUT, 12);
  });
});

type Row = Parameters<typeof compareCosts>[0][number];

function row(name: string, strategy: string, window: number, costUsd: number, extra: Partial<Row> = {}): Row {
  return { name, strategy, window, costUsd, costFloorUsd: costUsd / 4, passed: true, overflows: 0, ...extra };
}

describe('compareCosts', () => {
  const results: Row[] = [
    row('a', 'guard', 8_000, 1),
    row('a', 'adk', 8_000, 2),
    row('b', 'guard', 8_000, 3),
    row('b', 'adk', 8_000, 3),
    row('c', 'guard', 200_000, 1),
    row('c', 'adk', 200_000, 10),
    row('d', 'guard', 200_000, 1),
    row('d', 'adk', 200_000, 4),
    // Not finished by both: left out.
    row('e', 'guard', 8_000, 1),
    row('e', 'adk', 8_000, 100, { overflows: 3, passed: false }),
    row('f', 'guard', 8_000, 50, { passed: false }),
    row('f', 'adk', 8_000, 1),
    row('g', 'guard', 8_000, 1),
  ];

  it('should compare only the scenarios both finish without an overflow', () => {
    const comparison = compareCosts(results, 'guard', 'adk');
    expect(comparison?.scenarios).toBe(4);
    // (1 + 3 + 1 + 1) / (2 + 3 + 10 + 4); ratios 0.5, 1, 0.1, 0.25: median (0.25 + 0.5) / 2.
    expect(comparison?.totalRatio).toBeCloseTo(6 / 19, 12);
    expect(comparison?.medianRatio).toBeCloseTo(0.375, 12);
    expect(comparison?.byWindow).toEqual([
      { window: 8_000, scenarios: 2, medianRatio: 0.75 },
      { window: 200_000, scenarios: 2, medianRatio: (0.1 + 0.25) / 2 },
    ]);
    // Floors are a quarter of each guard cost here: 0.25 / 2, 0.75 / 3, 0.25 / 10, 0.25 / 4.
    expect(comparison?.floorMedianRatio).toBeCloseTo((0.0625 + 0.125) / 2, 12);
  });

  it('should take the middle ratio of an odd count, and say nothing when no scenario is shared', () => {
    expect(compareCosts(results.slice(0, 6), 'guard', 'adk')?.medianRatio).toBe(0.5);
    expect(compareCosts(results, 'guard', 'none')).toBeUndefined();
  });

  it('should print the figures it compares', () => {
    const text = renderCostComparison(compareCosts(results, 'guard', 'adk')!);
    expect(text).toContain('on the 4 scenarios both finish without an overflow');
    expect(text).toContain('total 0.32x, median 0.38x; median by window: 8,000: 0.75x (2), 200,000: 0.17x (2)');
    expect(text).toContain('median 0.09x');
  });
});
