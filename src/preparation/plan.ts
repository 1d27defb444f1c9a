/**
 * Background compaction, the decision: when no compaction is due on this call
 * but the estimate is within `prepareTurnsAhead` of the session's average
 * turns of the threshold, what a summary prepared now would cover. The split
 * follows the rules of a compaction at the threshold (the same plan, masking
 * and split steps), with the tail budget lowered by the growth still expected
 * before the threshold: when the summary is applied there, the tail it left
 * verbatim has grown by about that much and lands near the usual target.
 * Nothing is prepared when masking alone would reach the target (no summarizer
 * call is needed then), for the sliding window (it compacts for structure),
 * or without a summarizer (the fallback costs no wait).
 */
import type { Content } from '@google/genai';
import type { CompactionPlan } from '../budget/compaction-plan.js';
import type { SummaryCoverage } from '../split/coverage.js';
import type { ResolvedPolicy } from '../options.js';
import type { SummaryRecord } from '../summary/stored-summary.js';
import type { UsageRecord } from '../usage/stored-usage.js';
import type { MaskRecord } from '../masking/mask-record.js';
import { anchorAt, type SummaryPosition } from '../state/watermark.js';
import { coveredContentsAt } from '../state/covered-contents.js';
import { chooseSplit, type Split } from '../split/choose-split.js';
import { maskForRoom } from '../masking/mask-for-room.js';
import type { RequestView, ViewSource } from '../masking/request-view.js';
import type { LeadingRequest } from '../summary/summary-from-request.js';

export interface PreparationInput {
  readonly policy: ResolvedPolicy;
  readonly usage: UsageRecord;
  /** Whether a summarizer exists; without one the fallback is immediate and nothing is prepared. */
  readonly canSummarize: boolean;
  /** Calibrated threshold and estimate of this call, and the factor between heuristic and calibrated tokens. */
  readonly threshold: number;
  readonly calibrated: number;
  readonly factor: number;
  /** The plan a compaction at the threshold would follow (`planCompaction` of this call); made only near the mark. */
  readonly plan: () => CompactionPlan;
  readonly source: ViewSource;
  readonly view: RequestView;
  readonly coverage: SummaryCoverage;
  readonly maskedUpTo: number;
  /** Where the stored mask starts (0 when it has no start). */
  readonly maskedFrom?: number | undefined;
  readonly previous: SummaryRecord | undefined;
  readonly mask: MaskRecord | undefined;
  readonly fixedTokens: number;
  readonly summaryTokens: number;
  readonly fingerprints: readonly string[];
  readonly now: number;
  /** Calibrated tokens one step adds, when this call is a step of a tool loop (usage/turns.ts `averageStepTokens`). */
  readonly stepTokens?: number | undefined;
}

/** What to summarize in the background: the split, the view it is read from, and its watermark for validation. */
export interface PreparationRequest {
  readonly previous: SummaryRecord | undefined;
  readonly split: Split;
  /** Where the prepared summary ends, as a stored summary would record it (checked before it is applied). */
  readonly watermark: SummaryPosition;
  readonly contents: readonly Content[];
  readonly view: readonly Content[];
  readonly plan: CompactionPlan;
  readonly fingerprints: readonly string[];
  readonly now: number;
  /** This call's request up to the split, when the summarizer is the agent's own model (summary/summary-from-request.ts). */
  readonly fromRequest?: LeadingRequest | undefined;
  /** Keys of the application's answers in what it covers, which its summary reads (pipeline/unseen-answer.ts). */
  readonly answers?: readonly string[] | undefined;
}

/** The calibrated estimate from which a summary is prepared, when the session's turn size is known. */
export function preparationMark(policy: ResolvedPolicy, usage: UsageRecord, threshold: number): number | undefined {
  if (policy.prepareTurnsAhead <= 0 || policy.strategy !== 'threshold' || !usage.averageTurnTokens) return undefined;
  return threshold - policy.prepareTurnsAhead * usage.averageTurnTokens;
}

export function planPreparation(input: PreparationInput): PreparationRequest | undefined {
  const { coverage, calibrated } = input;
  const mark = preparationMark(input.policy, input.usage, input.threshold);
  if (!input.canSummarize || mark === undefined || calibrated < mark || calibrated >= input.threshold) return undefined;
  // A prepared summary fell short in this session before: the call at the threshold would summarize again.
  if (input.usage.preparedFellShort === true) return undefined;
  const growth = Math.ceil(expectedGrowth(input) / input.factor);
  const plan = input.plan();
  const masking = maskForRoom({
    source: input.source,
    coverage,
    maskedUpTo: input.maskedUpTo,
    maskedFrom: input.maskedFrom,
    reason: 'threshold',
    manual: false,
    keepRecent: input.policy.maskKeepRecent,
    fixedTokens: input.fixedTokens,
    summaryTokens: input.summaryTokens,
    // The compaction's own rule for when masking is enough, met after the growth still expected.
    target: Math.max(0, plan.maskTarget - growth),
    fingerprints: input.fingerprints,
    previous: input.mask,
    now: input.now,
  });
  const view = masking ?? input.view;
  const split = chooseSplit({
    contents: input.source.contents,
    viewTokens: view.viewTokens,
    coverage,
    reason: 'threshold',
    heldBack: false,
    masking,
    hasSummary: input.previous !== undefined,
    summaryCap: plan.summaryCap,
    tailBudget: Math.max(0, plan.tailBudget - growth),
    tailRoom: Math.max(0, plan.tailRoom - growth),
    keepFrom: undefined,
  });
  if (!split) return undefined;
  return {
    previous: input.previous,
    split,
    watermark: watermarkOf(split.coverage, input.fingerprints),
    contents: input.source.contents,
    view: view.view,
    plan,
    fingerprints: input.fingerprints,
    now: input.now,
  };
}

/**
 * Calibrated tokens the request grows by before the call that crosses the threshold, that call included: the gap
 * left now and that call's overshoot. Between turns the overshoot can be a whole turn, so the lead
 * (`prepareTurnsAhead` average turns) is taken; inside a tool loop the crossing call overshoots by about one step,
 * and a session whose first turn was a long loop has an average turn far above what one more step adds (the
 * fifty-fourth outside trial: a summary prepared because masking looked short by a turn of 10k tokens, never used).
 * A loop that ends at this step leaves the crossing to the next turn's first call, which may overshoot by more:
 * masking may then fall short there, and that call summarizes itself (it waits), as without a preparation.
 */
function expectedGrowth(input: PreparationInput): number {
  const lead = input.policy.prepareTurnsAhead * (input.usage.averageTurnTokens ?? 0);
  const gap = Math.max(0, input.threshold - input.calibrated);
  // Two steps: the average is a moving one, and the step that crosses may be larger (review 47).
  const expected = input.stepTokens === undefined ? lead : Math.min(lead, gap + 2 * input.stepTokens);
  return Math.max(expected, gap);
}

function watermarkOf(coverage: SummaryCoverage, fingerprints: readonly string[]): SummaryPosition {
  const fingerprintAt = (index: number): string | undefined => fingerprints[index];
  return {
    covered: coverage.covered,
    anchor: anchorAt(fingerprintAt, coverage.covered),
    kept:
      coverage.keptAt === undefined
        ? undefined
        : { at: coverage.keptAt, fingerprint: fingerprints[coverage.keptAt] ?? '' },
    contents: coveredContentsAt(fingerprintAt, coverage.covered),
  };
}
