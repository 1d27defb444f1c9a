/**
 * When no compaction is due: the stored summary and mask applied as they are, stale tool output
 * masked for cost when that pays for the cached prefix it breaks (masking/mask-stale-output.ts),
 * and a summary planned in the background when the threshold is near (preparation/plan.ts).
 */
import { DEFAULT_CACHED_PRICE_RATIO } from '../cost/cache-terms.js';
import type { MaskStep } from '../masking/mask-for-room.js';
import { maskStaleOutput } from '../masking/mask-stale-output.js';
import { elisionLimits } from '../masking/pays-for-cache.js';
import { planPreparation, type PreparationRequest } from '../preparation/plan.js';
import { idleUsage } from './next-usage.js';
import { planFor } from './compact.js';
import type { Decision, GuardRequestInput } from './contract.js';
import type { Observed } from './observe.js';
import { contentsAsIs, leadingRequest } from './leading-request.js';
import { answersRead } from './unseen-answer.js';
import { pendingCallPlaces } from '../summary/awaited-calls.js';

/** No compaction: the stored summary and mask, as they are. */
export function sendAsIs(input: GuardRequestInput, observed: Observed): Decision {
  const { located, mask, measure } = observed;
  return {
    contents: contentsAsIs(input, observed),
    summaryDiscarded: located.summaryDiscarded,
    mask: mask.maskUpdate,
    usage: idleUsage(input.usage, measure.estimate, measure.framing, measure.calibrated),
    budget: measure.budget,
    estimate: measure.estimate,
    calibrated: measure.calibrated,
    shrunk: false,
  };
}

/** Masking for cost when nothing is due (masking/mask-stale-output.ts); sent through the compaction's last steps, no summary. */
export function staleMasking(input: GuardRequestInput, observed: Observed): MaskStep | undefined {
  return maskStaleOutput({
    policy: input.policy,
    estimate: observed.measure.estimate,
    cache: {
      ...elisionLimits({
        policy: input.policy,
        usage: input.usage,
        threshold: observed.measure.budget.threshold,
        sliding: observed.decision.sliding,
        safetyLine: observed.decision.safetyLine,
      }),
      usage: input.usage,
      factor: observed.measure.factor,
      cachedPriceRatio: input.cachedPriceRatio ?? DEFAULT_CACHED_PRICE_RATIO,
      declaration: input.recallDeclarationTokens,
    },
    source: observed.source,
    view: observed.view,
    coverage: observed.located.coverage,
    maskedUpTo: observed.mask.maskedUpTo,
    maskedFrom: observed.mask.maskedFrom,
    fixedTokens: observed.fixedTokens,
    summaryTokens: observed.measure.summaryTokens,
    fingerprints: input.fingerprints,
    previous: input.mask,
    now: input.now,
  });
}

/** Background compaction: what to summarize ahead of the threshold, if the estimate is near it. */
export function preparationFor(input: GuardRequestInput, observed: Observed): PreparationRequest | undefined {
  const { measure, located, mask } = observed;
  const planned = planPreparation({
    policy: input.policy,
    usage: input.usage,
    canSummarize: input.summarize !== undefined,
    threshold: measure.budget.threshold,
    calibrated: measure.calibrated,
    factor: measure.factor,
    plan: () => planFor(input, observed),
    source: observed.source,
    view: observed.view,
    coverage: located.coverage,
    maskedUpTo: mask.maskedUpTo,
    maskedFrom: mask.maskedFrom,
    previous: located.summary,
    mask: input.mask,
    fixedTokens: observed.fixedTokens,
    summaryTokens: measure.summaryTokens,
    fingerprints: input.fingerprints,
    now: input.now,
    stepTokens: input.invocationId === input.usage.lastInvocationId ? input.usage.averageStepTokens : undefined,
  });
  if (!planned || coversPendingCall(input, located.coverage.covered, planned.watermark.covered)) return undefined;
  // What it reads of the application's answers: one that comes after, inside what it covers, makes it not apply.
  const seen = located.summary?.answers ?? [];
  const answers = answersRead(input.contents, planned.watermark.covered, input.applicationAnswers ?? [], seen);
  // Read after this call's answer (the shell starts it then): the prefix this call sends is cached by then.
  return { ...planned, fromRequest: leadingRequest(input, observed, planned.split), answers };
}

/**
 * Whether a summary covering up to `covered` would newly cover a call still awaiting the application's answer: the
 * answer is placed right after its call, inside what the summary covers, and the summary is dropped unapplied (the
 * thirty-first outside trial: four of five prepared summaries of an approval app thrown away). Left to the compaction
 * at the threshold, which lists the call as awaited; a call already covered (never answered, say) stops nothing.
 */
function coversPendingCall(input: GuardRequestInput, coveredBefore: number, covered: number): boolean {
  return pendingCallPlaces(input.contents, input.pendingCalls ?? []).some(
    ({ at }) => at >= coveredBefore && at < covered,
  );
}
