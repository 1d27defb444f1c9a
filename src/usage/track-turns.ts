/**
 * Turn accounting for status displays: how many invocations an agent has
 * served and how many tokens one turn adds on average (a moving average of the
 * growth between the first calls of consecutive invocations; turns that
 * contained a compaction are left out, their growth is negative).
 */
import type { Budget } from '../budget/compute-budget.js';
import type { UsageRecord } from '../state/guard-state.js';

const AVERAGE_WEIGHT = 0.3;

export function trackTurn(usage: UsageRecord, invocationId: string, calibrated: number, budget: Budget): UsageRecord {
  const withBudget: UsageRecord = {
    ...usage,
    window: budget.window,
    threshold: budget.threshold,
    hardLimit: budget.hardLimit,
  };
  if (invocationId === usage.lastInvocationId) return withBudget;
  let average = usage.averageTurnTokens;
  const previousStart = usage.turnStartCalibrated;
  if (previousStart !== undefined && calibrated > previousStart) {
    const growth = calibrated - previousStart;
    average = average === undefined ? growth : average * (1 - AVERAGE_WEIGHT) + growth * AVERAGE_WEIGHT;
  }
  return {
    ...withBudget,
    invocations: usage.invocations + 1,
    lastInvocationId: invocationId,
    turnStartCalibrated: calibrated,
    averageTurnTokens: average,
  };
}
