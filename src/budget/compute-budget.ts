/**
 * The token budget of one agent's requests.
 *
 *   buffer    = bufferTokens ?? (window > 200k ? 20,000 : 20% of the window)
 *   threshold = window - max(buffer, output reserve)
 *   hardLimit = min(95% of the window, window - output reserve)
 *
 * While no real count has been seen (calibrated = false) the threshold is also
 * capped at `uncalibratedThresholdRatio` of the window: the default correction
 * (1.5) can be wrong by 2x for providers that never report usage, and a lower
 * threshold is the only protection they get (the adaptive buffer).
 */

import { LARGE_WINDOW, LARGE_WINDOW_BUFFER } from '../config/budget-options.js';
import { OPTION_TABLE } from '../config/option-table.js';

// The option defaults live in the option table; these names keep the budget readable on its own.
const DEFAULT_BUFFER_RATIO: number = OPTION_TABLE.bufferRatio.default;
const DEFAULT_HARD_LIMIT_RATIO: number = OPTION_TABLE.hardLimitRatio.default;
const DEFAULT_UNCALIBRATED_THRESHOLD_RATIO: number = OPTION_TABLE.uncalibratedThresholdRatio.default;

interface BudgetInput {
  readonly window: number;
  readonly bufferTokens?: number | undefined;
  readonly bufferRatio?: number | undefined;
  /** Tokens to keep free for the model's answer (`maxOutputTokens`), if known. */
  readonly outputReserve?: number | undefined;
  readonly calibrated: boolean;
  readonly uncalibratedThresholdRatio?: number | undefined;
  readonly hardLimitRatio?: number | undefined;
}

export interface Budget {
  readonly window: number;
  readonly buffer: number;
  /** Compaction starts when the calibrated estimate reaches this. */
  readonly threshold: number;
  /** A request is never knowingly sent above this. */
  readonly hardLimit: number;
}

export function defaultBuffer(window: number, bufferRatio: number = DEFAULT_BUFFER_RATIO): number {
  return window > LARGE_WINDOW ? LARGE_WINDOW_BUFFER : Math.round(window * bufferRatio);
}

export function computeBudget(input: BudgetInput): Budget {
  const { window } = input;
  const buffer = input.bufferTokens ?? defaultBuffer(window, input.bufferRatio);
  // An output reserve larger than half the window is a misconfiguration; cap it.
  const outputReserve = Math.min(Math.max(0, input.outputReserve ?? 0), Math.floor(window / 2));
  let threshold = window - Math.max(buffer, outputReserve);
  if (!input.calibrated) {
    threshold = Math.min(
      threshold,
      Math.floor(window * (input.uncalibratedThresholdRatio ?? DEFAULT_UNCALIBRATED_THRESHOLD_RATIO)),
    );
  }
  const hardLimit = Math.max(
    threshold,
    Math.min(Math.floor(window * (input.hardLimitRatio ?? DEFAULT_HARD_LIMIT_RATIO)), window - outputReserve),
  );
  return { window, buffer, threshold: Math.max(1, threshold), hardLimit };
}

/** The budget options of an agent's policy (a `ResolvedPolicy` is one). */
interface BudgetPolicy {
  readonly bufferTokens?: number | undefined;
  readonly bufferRatio?: number | undefined;
  readonly reserveOutputTokens: number;
  readonly uncalibratedThresholdRatio?: number | undefined;
  readonly hardLimitRatio?: number | undefined;
}

/** The budget of an agent's requests under `window`, by its policy; `maxOutputTokens`: the request's own output cap. */
export function policyBudget(
  window: number,
  policy: BudgetPolicy,
  maxOutputTokens: number | undefined,
  calibrated: boolean,
): Budget {
  return computeBudget({
    window,
    bufferTokens: policy.bufferTokens,
    bufferRatio: policy.bufferRatio,
    outputReserve: Math.max(policy.reserveOutputTokens, maxOutputTokens ?? 0),
    calibrated,
    uncalibratedThresholdRatio: policy.uncalibratedThresholdRatio,
    hardLimitRatio: policy.hardLimitRatio,
  });
}
