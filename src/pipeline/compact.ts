/**
 * Steps 4-8 of the decision, when a compaction is due: how the room is shared, old tool results
 * masked first (no model call), what a new summary covers if it pays, and the summary itself (the
 * only async step; a summary prepared in the background is taken instead when it still applies).
 */
import { planCompaction, type CompactionPlan } from '../budget/compaction-plan.js';
import type { CompactionReason } from '../budget/compaction-reason.js';
import { maskForRoom, type MaskStep } from '../masking/mask-for-room.js';
import { growthAhead, maskingCanWait } from '../masking/masking-can-wait.js';
import type { RequestView } from '../masking/request-view.js';
import type { PreparedCheck } from '../preparation/prepared-summary.js';
import { inFlightRequestTokens } from '../split/coverage.js';
import { chooseSplit, type Split } from '../split/choose-split.js';
import type { GuardRequestInput } from './contract.js';
import { makeSummary, type MadeSummary } from './make-summary.js';
import { leadingRequest } from './leading-request.js';
import { reductionTerms, summarizeNowPays } from './room-choice.js';
import type { Observed } from './observe.js';

/** Steps 4-8: the masking and the new summary, when one is made. */
export interface Compacted {
  readonly masking: MaskStep | undefined;
  readonly view: RequestView;
  /** Heuristic estimate of the request without a new summary. */
  readonly estimate: number;
  readonly made?: MadeSummary | undefined;
  /** A masking alone was enough and waits for a later call (masking/masking-can-wait.ts): the request is sent as it is. */
  readonly waits?: true | undefined;
}

export async function compact(
  input: GuardRequestInput,
  observed: Observed,
  reason: CompactionReason,
  prepared: PreparedCheck | undefined,
): Promise<Compacted> {
  const { contents, tokenizer, fingerprints, now } = input;
  const { located, measure, decision } = observed;
  const { summary, coverage } = located;
  const plan = planFor(input, observed);
  const masking = roomMasking(input, observed, reason, plan);
  if (reason === 'threshold' && masking?.enough === true && maskingWaits(input, observed, masking))
    return { masking: undefined, view: observed.view, estimate: measure.estimate, waits: true };
  const view = masking ?? observed.view;
  const estimate = masking?.estimate ?? measure.estimate;
  const splitFor = (chosen: { readonly enough: boolean } | undefined) =>
    chooseSplit({
      contents,
      viewTokens: view.viewTokens,
      coverage,
      reason,
      heldBack: decision.heldBack,
      masking: chosen,
      hasSummary: summary !== undefined,
      summaryCap: plan.summaryCap,
      tailBudget: plan.tailBudget,
      tailRoom: plan.tailRoom,
      keepFrom: decision.sliding?.keepFrom,
      ownRequest: input.ownRequestAt,
    });
  const split = splitFor(masking) ?? deeperSplit(input, observed, plan, masking, splitFor);
  if (!split) return { masking, view, estimate };
  const made = await makeSummary({
    contents,
    view,
    split,
    previous: summary,
    coverage,
    plan,
    tokenizer,
    summarize: input.summarize,
    fingerprints,
    viewOptions: observed.viewOptions,
    masked: masking !== undefined,
    now,
    leadingFor: (chosen) => leadingRequest(input, observed, chosen),
    answers: input.applicationAnswers?.map((answer) => answer.key),
    pending: input.pendingCalls,
    // The sliding window's schedule compacts for structure: a summary prepared for room does not fit it.
    prepared:
      input.prepared && prepared?.valid && reason !== 'schedule'
        ? { handle: input.prepared, coverage: { covered: prepared.covered, keptAt: prepared.keptAt } }
        : undefined,
  });
  return { masking, view, estimate, made };
}

/** Whether a masking for room that is enough can wait for the call that needs it (threshold strategy only). */
function maskingWaits(input: GuardRequestInput, observed: Observed, masking: MaskStep): boolean {
  const { measure } = observed;
  // Waiting sends requests nearer the window: a rejection must be retried in the call (trial 48: behind a callback
  // that edited the contents, which rules the retry out, a burst of numbers counted 2.7x the estimate reached the user).
  if (input.policy.strategy !== 'threshold' || input.rejectionRetried !== true) return false;
  return maskingCanWait({
    calibrated: measure.calibrated,
    masked: Math.ceil(masking.estimate * measure.factor),
    threshold: measure.budget.threshold,
    hardLimit: measure.budget.hardLimit,
    growthAhead: growthAhead(input.usage),
    uncounted: uncountedTokens(input.usage, measure),
  });
}

/** Calibrated tokens the request added since the provider counted the agent's own request; undefined without a count. */
function uncountedTokens(usage: GuardRequestInput['usage'], measure: Observed['measure']): number | undefined {
  const { realPromptTokens, lastEstimate } = usage;
  if (realPromptTokens === undefined || lastEstimate === undefined) return undefined;
  return Math.max(0, (measure.estimate - lastEstimate) * measure.factor);
}

/** Step 5: old tool results masked first, from the start that costs least per call (masking/mask-start.ts). */
function roomMasking(
  input: GuardRequestInput,
  observed: Observed,
  reason: CompactionReason,
  plan: CompactionPlan,
): MaskStep | undefined {
  const { measure } = observed;
  return maskForRoom(
    {
      source: observed.source,
      coverage: observed.located.coverage,
      maskedUpTo: observed.mask.maskedUpTo,
      maskedFrom: observed.mask.maskedFrom,
      reason,
      // Interactions mode: every reduction re-sends the whole chain, so it goes to the summary's target
      // (a masking just under the threshold would start a new chain on nearly every call).
      manual: input.manual === true || input.interactions !== undefined,
      keepRecent: input.policy.maskKeepRecent,
      fixedTokens: observed.fixedTokens,
      summaryTokens: measure.summaryTokens,
      target: plan.maskTarget,
      fingerprints: input.fingerprints,
      previous: input.mask,
      now: input.now,
    },
    { factor: measure.factor, terms: reductionTerms(input, observed, observed.view.viewTokens) },
  );
}

/**
 * When the masking alone is enough: the split a summary would take now, if summarizing now costs
 * less per call than the masking alone (pipeline/room-choice.ts), so the next reduction is further away.
 */
function deeperSplit(
  input: GuardRequestInput,
  observed: Observed,
  plan: CompactionPlan,
  masking: MaskStep | undefined,
  splitFor: (masking: { readonly enough: boolean }) => Split | undefined,
): Split | undefined {
  if (masking?.enough !== true) return undefined;
  const split = splitFor({ enough: false });
  return split && summarizeNowPays({ input, observed, masking, split, plan }) ? split : undefined;
}

export function planFor(input: GuardRequestInput, observed: Observed): CompactionPlan {
  const { policy } = input;
  return planCompaction({
    threshold: observed.measure.budget.threshold,
    correction: observed.measure.factor,
    fixedTokens: observed.fixedTokens,
    inFlightTokens: inFlightRequestTokens(input.contents, input.tokens, observed.located.coverage),
    summaryMaxTokens: policy.summaryMaxTokens,
    compactTargetRatio: policy.compactTargetRatio,
    summarizerWindow: input.summarizerWindow,
    summarizerInputRatio: policy.summarizerInputRatio,
  });
}
