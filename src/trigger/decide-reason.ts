/**
 * Step 3 of the decision: whether this call compacts, and why. A rejected or
 * requested compaction is forced; over the threshold is for room; the sliding
 * window also compacts on its safety ratio or its schedule. A compaction for
 * room that was futile under the same conditions is held back (see
 * trigger/futile-compaction.ts); the schedule then still applies. So is a
 * compaction forced by a rejection when the fixed part alone is over the
 * window: no summary can make such a request fit.
 */
import type { Content } from '@google/genai';
import type { Budget } from '../budget/compute-budget.js';
import { planSlidingWindow, type SlidingWindowPlan } from './sliding-window.js';
import type { ResolvedPolicy } from '../options.js';
import type { CompactionReason } from '../budget/compaction-reason.js';
import type { UsageRecord } from '../usage/stored-usage.js';
import { compactionMayHelp, type CompactionConditions } from './futile-compaction.js';
import { MIN_SUMMARY_TOKENS, SUMMARY_FRAMING_TOKENS } from '../budget/compaction-plan.js';

export interface ReasonInput {
  readonly contents: readonly Content[];
  readonly covered: number;
  readonly policy: ResolvedPolicy;
  readonly usage: UsageRecord;
  readonly window: number;
  readonly budget: Budget;
  /** Heuristic tokens of the fixed part and of the whole request; the calibrated request and the factor. */
  readonly fixedTokens: number;
  /** Heuristic tokens of the in-flight turn's user message: a compaction keeps it whole, so it cannot take it out. */
  readonly requestTokens?: number | undefined;
  readonly estimate: number;
  readonly calibrated: number;
  readonly factor: number;
  /** Whether the factor was learned from a real count (else the default guess, which can be wrong by 2x). */
  readonly isCalibrated?: boolean | undefined;
  /** A compaction the application asked for (`requestCompaction`): never held back. */
  readonly manual?: boolean | undefined;
}

export interface ReasonDecision {
  /** Undefined: send the view as it is. */
  readonly reason: CompactionReason | undefined;
  /** A compaction for room was due but held back as futile: nothing is summarized. */
  readonly heldBack: boolean;
  /** The sliding window's plan, with the strategy. */
  readonly sliding: SlidingWindowPlan | undefined;
  /** Calibrated tokens at which the sliding window compacts for safety. */
  readonly safetyLine: number;
  /** What this call would compact against, remembered when it turns out futile. */
  readonly conditions: CompactionConditions;
}

export function decideReason(input: ReasonInput): ReasonDecision {
  const { policy, usage, budget, calibrated, fixedTokens, factor } = input;
  const { invocationThreshold, overlapSize } = policy;
  const { contents, covered } = input;
  const sliding =
    policy.strategy === 'sliding-window'
      ? planSlidingWindow({ contents, covered, invocationThreshold, overlapSize })
      : undefined;
  // A scheduled summary not kept is tried again once the turns it would cover have doubled (sliding-window.ts).
  const scheduleHeld = sliding !== undefined && sliding.completedTurns <= (usage.scheduleHeldAt ?? -1);
  const scheduleDue = sliding?.due === true && !scheduleHeld && usage.compactions < policy.maxCompactions;
  const safetyLine = Math.floor(policy.safetyRatio * input.window);
  const safetyDue = sliding !== undefined && calibrated >= safetyLine;
  let reason: CompactionReason | undefined;
  if (usage.forceCompaction) reason = 'forced';
  else if (calibrated >= budget.threshold) reason = 'threshold';
  else if (safetyDue) reason = 'safety-ratio';
  else if (scheduleDue) reason = 'schedule';
  const conditions: CompactionConditions = {
    window: input.window,
    fixedTokens,
    correction: factor,
    contentTokens: input.estimate - fixedTokens,
  };
  const pressure = {
    calibrated,
    // What no compaction takes out: the fixed part and the message the turn answers.
    fixedCalibrated: Math.ceil((fixedTokens + (input.requestTokens ?? 0)) * factor),
    hardLimit: budget.hardLimit,
    window: budget.window,
    target: reason === 'safety-ratio' ? safetyLine - 1 : budget.threshold,
    summaryFloor: Math.ceil((SUMMARY_FRAMING_TOKENS + MIN_SUMMARY_TOKENS) * factor),
    // Uncalibrated, the threshold is the only protection (the adaptive buffer): never run on to the hard limit then.
    tooSmallHolds: input.isCalibrated === true,
  };
  // After a rejection, a fixed part alone over the window leaves nothing a compaction could take out to fit.
  const hopeless = reason === 'forced' && input.manual !== true && pressure.fixedCalibrated >= input.window;
  const heldBack =
    (reason === 'threshold' || reason === 'safety-ratio' || hopeless) &&
    !compactionMayHelp(usage.futileCompaction, conditions, pressure);
  if (heldBack && reason === 'safety-ratio') reason = scheduleDue ? 'schedule' : undefined;
  return { reason, heldBack, sliding, safetyLine, conditions };
}
