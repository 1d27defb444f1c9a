/**
 * A compaction that cannot make the request fit (a system prompt, tools and
 * pins that take most of the window) costs a summarizer call and gains
 * nothing. After one such attempt the guard remembers what it was tried
 * against, and does not try again for room (threshold, safety ratio) until
 * something changed that could make it help: the window, a smaller fixed part,
 * a lower correction, enough new content to be worth summarizing (only while
 * the fixed part alone is under the target: above it no summary reaches the
 * target however much history there is), or a request
 * over the hard limit with new content that a compaction could take out of it
 * (when the fixed part alone is under the window). The same holds, with no
 * attempt made, when the fixed part leaves under the target less room than
 * that new content: the request runs on to the hard limit. A forced
 * compaction (after a rejection, or asked for) and the sliding window's
 * schedule are never held back. Pure functions over plain data.
 */
import type { FutileCompaction } from '../usage/marks.js';

/** New content, as a share of the window, that makes another summary worth a call. */
export const FUTILE_RETRY_GROWTH_RATIO = 0.05;
/** A correction this much lower (relative) than at the attempt counts as the calibration having moved. */
export const FUTILE_RETRY_CORRECTION_DROP = 0.05;
/** Below this many tokens of new content a summary is never worth a call. */
const MIN_RETRY_GROWTH = 64;

/** What the current call would compact against. */
export type CompactionConditions = FutileCompaction;

/** Where the request and its fixed part alone stand against the hard limit and the window (calibrated tokens). */
interface HardLimitPressure {
  readonly calibrated: number;
  readonly fixedCalibrated: number;
  readonly hardLimit: number;
  readonly window: number;
  /** What the compaction must get the request under: the threshold, or the safety line. */
  readonly target: number;
  /** The least a summary adds (its framing and smallest size), when a compaction would make one. */
  readonly summaryFloor?: number | undefined;
  /** Whether too little room holds a compaction back (only on a calibrated estimate). */
  readonly tooSmallHolds?: boolean | undefined;
}

/** New content that makes another summary worth a call on this window. */
function worthGrowth(window: number): number {
  return Math.max(MIN_RETRY_GROWTH, Math.floor(window * FUTILE_RETRY_GROWTH_RATIO));
}

/**
 * Whether what no compaction takes out (the fixed part, the turn's message) leaves under the target less room than
 * the new content a summary waits for: each compaction there buys a turn or two, for a summarizer call and the cached
 * prefix each time (the nineteenth outside trial: a 6k-token policy prompt on an 8k window, a summary every two or
 * three calls). The fixed part at or over the target is the limit of it: no summary reaches the target at all.
 */
function roomTooSmall(pressure: HardLimitPressure): boolean {
  return pressure.target - pressure.fixedCalibrated - (pressure.summaryFloor ?? 0) < worthGrowth(pressure.window);
}

/** Whether a compaction for room may help now, given the last futile attempt. */
export function compactionMayHelp(
  last: FutileCompaction | undefined,
  now: CompactionConditions,
  pressure?: HardLimitPressure,
): boolean {
  const grown = last ? now.contentTokens - last.contentTokens : Number.POSITIVE_INFINITY;
  // Over the hard limit, with room in the window and new content to take out: only a compaction keeps the request from being rejected.
  // (guardRequest still skips a split that covers too little to pay for a summary.)
  if (pressure && pressure.calibrated > pressure.hardLimit && pressure.fixedCalibrated < pressure.window && grown > 0)
    return true;
  // Too little room under the target for a summary to buy more than a turn or two: the request runs on to the hard
  // limit. (A fixed part over the window is left to the attempt below: the provider's rejection may say otherwise.)
  if (pressure?.tooSmallHolds === true && pressure.fixedCalibrated < pressure.window && roomTooSmall(pressure))
    return false;
  if (!last) return true;
  if (now.window !== last.window) return true;
  if (now.fixedTokens < last.fixedTokens) return true;
  if (now.correction < last.correction * (1 - FUTILE_RETRY_CORRECTION_DROP)) return true;
  // The fixed part alone at or over the target: no amount of new content lets a summary reach it (only the hard limit above counts).
  if (pressure && pressure.fixedCalibrated >= pressure.target) return false;
  return grown >= worthGrowth(now.window);
}
