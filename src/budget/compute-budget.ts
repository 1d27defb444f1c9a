/**
 * The token budget of one agent's requests.
 *
 *   buffer    = bufferTokens when at most half the window, else the default:
 *               window > 200k ? 20,000 : bufferRatio × window
 *   hardCap   = min(hardLimitRatio × window, window - output reserve)
 *   threshold = window - max(buffer, output reserve), at most hardCap when hardLimitRatio is set
 *   hardLimit = max(threshold, hardCap)     (hardLimitRatio unset: 95%)
 *
 * A `bufferTokens` over half the window was written for a larger window than the one in use (the
 * README's 50,000 for a 1M model, on a 32k one): as written it would leave a threshold of a few
 * hundred tokens, and every call would compact. A set `hardLimitRatio` is a promise that no request
 * is knowingly sent above it, so it caps the threshold; unset, the hard limit yields to the threshold.
 *
 * While no real count has been seen (calibrated = false) the threshold is also
 * capped at `uncalibratedThresholdRatio` of the window: the default correction
 * (1.5) can be wrong by 2x for providers that never report usage, and a lower
 * threshold is the only protection they get (the adaptive buffer).
 */

import {
  DEFAULT_HARD_LIMIT_RATIO,
  LARGE_WINDOW,
  LARGE_WINDOW_BUFFER,
  MAX_BUFFER_SHARE,
} from '../config/budget-options.js';
import { OPTION_TABLE } from '../config/option-table.js';

// The option defaults live in the option table; these names keep the budget readable on its own.
const DEFAULT_BUFFER_RATIO: number = OPTION_TABLE.bufferRatio.default;
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
  /**
   * Before any real count, the threshold once one is seen (`threshold` is then capped at
   * `uncalibratedThresholdRatio`); set only when it differs from `threshold`.
   */
  readonly calibratedThreshold?: number | undefined;
}

export function defaultBuffer(window: number, bufferRatio: number = DEFAULT_BUFFER_RATIO): number {
  return window > LARGE_WINDOW ? LARGE_WINDOW_BUFFER : Math.round(window * bufferRatio);
}

/** Whether `bufferTokens` was written for a larger window than `window` (more than half of it). */
export function bufferTooLarge(bufferTokens: number | undefined, window: number): boolean {
  return bufferTokens !== undefined && bufferTokens > window * MAX_BUFFER_SHARE;
}

/** The buffer kept free below `window`: `bufferTokens` unless written for a larger window, else the default. */
export function effectiveBuffer(window: number, bufferTokens?: number, bufferRatio?: number): number {
  return bufferTokens !== undefined && !bufferTooLarge(bufferTokens, window)
    ? bufferTokens
    : defaultBuffer(window, bufferRatio);
}

/** No request is knowingly sent above this: the hard limit's share of the window, less the output reserve. */
function hardCap(window: number, hardLimitRatio: number | undefined, outputReserve = 0): number {
  return Math.min(Math.floor(window * (hardLimitRatio ?? DEFAULT_HARD_LIMIT_RATIO)), window - outputReserve);
}

/** The options that set the threshold before the uncalibrated cap. */
type ThresholdInput = Pick<BudgetInput, 'window' | 'bufferTokens' | 'bufferRatio' | 'outputReserve' | 'hardLimitRatio'>;

interface CappedThreshold {
  readonly buffer: number;
  readonly outputReserve: number;
  /** window - max(buffer, output reserve): the threshold the buffer and the output reserve ask for. */
  readonly asked: number;
  readonly cap: number;
  /** `asked`, lowered to `cap` when `hardLimitRatio` is set. */
  readonly threshold: number;
}

function cappedThreshold(input: ThresholdInput): CappedThreshold {
  const { window } = input;
  const buffer = effectiveBuffer(window, input.bufferTokens, input.bufferRatio);
  // An output reserve larger than half the window is a misconfiguration; cap it.
  const outputReserve = Math.min(Math.max(0, input.outputReserve ?? 0), Math.floor(window / 2));
  const cap = hardCap(window, input.hardLimitRatio, outputReserve);
  const asked = window - Math.max(buffer, outputReserve);
  const threshold = input.hardLimitRatio === undefined ? asked : Math.min(asked, cap);
  return { buffer, outputReserve, asked, cap, threshold };
}

interface HardLimitConflict {
  readonly bufferTokens: number;
  /** The output reserve when it, not `bufferTokens`, sets the threshold asked for; else undefined. */
  readonly outputReserve: number | undefined;
  /** The threshold the buffer and the output reserve ask for. */
  readonly threshold: number;
  /** The hard limit, which caps it: the threshold the budget uses. */
  readonly hardLimit: number;
}

/**
 * When a set `bufferTokens` and a set `hardLimitRatio` disagree: the budget's own threshold before the hard
 * limit capped it (computeBudget's rule, output reserve included) is above the hard limit, so the buffer has
 * no effect. Undefined when the cap did not lower the threshold.
 */
export function bufferAboveHardLimit(input: ThresholdInput): HardLimitConflict | undefined {
  const { bufferTokens, window } = input;
  if (bufferTokens === undefined || bufferTooLarge(bufferTokens, window)) return undefined;
  const { outputReserve, asked, threshold } = cappedThreshold(input);
  if (threshold >= asked) return undefined;
  const reserveSets = outputReserve > bufferTokens ? outputReserve : undefined;
  return { bufferTokens, outputReserve: reserveSets, threshold: asked, hardLimit: threshold };
}

/** The option that sets a conflict's threshold, for its message: `bufferTokens 100`, or `reserveOutputTokens 2000`. */
export function thresholdSetBy(conflict: HardLimitConflict): string {
  return conflict.outputReserve === undefined
    ? `bufferTokens ${conflict.bufferTokens}`
    : `reserveOutputTokens ${conflict.outputReserve}`;
}

export function computeBudget(input: BudgetInput): Budget {
  const { window } = input;
  const { buffer, cap, threshold: capped } = cappedThreshold(input);
  let threshold = capped;
  if (!input.calibrated) {
    threshold = Math.min(
      threshold,
      Math.floor(window * (input.uncalibratedThresholdRatio ?? DEFAULT_UNCALIBRATED_THRESHOLD_RATIO)),
    );
  }
  const budget = { window, buffer, threshold: Math.max(1, threshold), hardLimit: Math.max(threshold, cap) };
  return threshold < capped ? { ...budget, calibratedThreshold: Math.max(1, capped) } : budget;
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
