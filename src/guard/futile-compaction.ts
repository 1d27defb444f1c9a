/**
 * A compaction that cannot make the request fit (a system prompt, tools and
 * pins that take most of the window) costs a summarizer call and gains
 * nothing. After one such attempt the guard remembers what it was tried
 * against, and does not try again for room (threshold, safety ratio) until
 * something changed that could make it help: the window, a smaller fixed part,
 * a lower correction, enough new content to be worth summarizing, or (when the
 * last attempt did bring the request under the hard limit) a request over the
 * hard limit again. A forced
 * compaction (after a rejection, or asked for) and the sliding window's
 * schedule are never held back. Pure functions over plain data.
 */
import type { FutileCompaction } from '../state/guard-state.js';

/** New content, as a share of the window, that makes another summary worth a call. */
export const FUTILE_RETRY_GROWTH_RATIO = 0.05;
/** A correction this much lower (relative) than at the attempt counts as the calibration having moved. */
export const FUTILE_RETRY_CORRECTION_DROP = 0.05;
/** Below this many tokens of new content a summary is never worth a call. */
const MIN_RETRY_GROWTH = 64;

/** What the current call would compact against (the record's fields but the outcome). */
export type CompactionConditions = Omit<FutileCompaction, 'underHardLimit'>;

/** Where the request stands against the hard limit (calibrated tokens). */
export interface HardLimitPressure {
  readonly calibrated: number;
  readonly hardLimit: number;
}

/** Whether a compaction for room may help now, given the last futile attempt. */
export function compactionMayHelp(last: FutileCompaction | undefined, now: CompactionConditions, pressure?: HardLimitPressure): boolean {
  if (!last) return true;
  // The last attempt missed the threshold but brought the request under the hard limit: over it again, it helps again.
  if (last.underHardLimit === true && pressure !== undefined && pressure.calibrated > pressure.hardLimit) return true;
  if (now.window !== last.window) return true;
  if (now.fixedTokens < last.fixedTokens) return true;
  if (now.correction < last.correction * (1 - FUTILE_RETRY_CORRECTION_DROP)) return true;
  const worthGrowth = Math.max(MIN_RETRY_GROWTH, Math.floor(now.window * FUTILE_RETRY_GROWTH_RATIO));
  return now.contentTokens - last.contentTokens >= worthGrowth;
}
