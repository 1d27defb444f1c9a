/**
 * The decision ContextGuard takes on every model call, as a function over
 * plain data: given the request contents as ADK built them, their measures,
 * the stored summary and calibration, it returns the contents to send and the
 * records to persist. The only effect is the summarizer call it is handed.
 *
 * A pipeline of small steps, each in its own file:
 * 1. locate-stored: where the stored summary and mask end (validated by their anchors);
 * 2. request-view, measure-request: the view the model would get, its estimate,
 *    calibration and budget;
 * 3. decide-reason: whether to compact, and why (held back when futile);
 * 4. budget/compaction-plan: how the room is shared (named ratios);
 * 5. mask-for-room: mask old tool results first, with no model call;
 * 6. choose-split: what a new summary covers, if it pays;
 * 7. make-summary, summarize-covered: the only async step (a summary prepared in the
 *    background and checked by prepared-summary is awaited there instead of the summarizer);
 *    failures give the mechanical summary;
 * 8. build-summary-record, compaction-outcome: what is persisted and reported;
 * 9. fit-request: what is sent (a summary that came out larger is discarded),
 *    shrunk if it still does not fit, and whether it is over the hard limit;
 * 10. next-usage: the usage record, with a futile attempt remembered.
 * When nothing is due, mask-stale-output masks old tool results for cost when that pays for
 * the cached prefix it breaks, and plan-preparation says what to summarize in the background.
 * Never loops, never throws.
 */
import type { Content } from '@google/genai';
import type { Budget } from '../budget/compute-budget.js';
import { planCompaction, type CompactionPlan } from '../budget/compaction-plan.js';
import { injectSummary, type SummaryContentOptions } from '../summary/inject-summary.js';
import { isReadOnlyTool } from '../config/read-only-tool.js';
import { DEFAULT_CACHED_PRICE_RATIO } from '../cost/cache-terms.js';
import { inFlightRequestTokens, uncoveredContents } from '../split/coverage.js';
import type { SummarizeFn } from '../summary/summarizer.js';
import { contentFramingTokens, estimateContentTokens } from '../estimate/estimate-content.js';
import { contentsFramingTokens, TokenMemo } from '../estimate/estimate-request.js';
import type { Tokenizer } from '../estimate/tokenizer.js';
import type { ResolvedPolicy } from '../options.js';
import type { CompactionReason } from '../budget/compaction-reason.js';
import type { SummaryRecord, UsageRecord } from '../state/guard-state.js';
import type { FingerprintAt } from '../state/watermark.js';
import type { MaskRecord } from '../masking/mask-record.js';
import { chooseSplit } from '../split/choose-split.js';
import { buildCompactionOutcome, type CompactionOutcome } from './compaction-outcome.js';

export type { CompactionOutcome } from './compaction-outcome.js';
import { decideReason, type ReasonDecision } from '../trigger/decide-reason.js';
import { composeRequest, overLimitMessage, shrinkToFit, type Composed, type Shrunk } from './fit-request.js';
import { makeSummary, type MadeSummary } from './make-summary.js';
import { planPreparation, type PreparationRequest } from '../preparation/plan.js';
import { checkPrepared, type PreparedCheck, type PreparedHandle } from '../preparation/prepared-summary.js';
import { locateStoredMask, locateStoredSummary, type LocatedMask, type LocatedSummary } from './locate-stored.js';
import { maskForRoom, type MaskStep } from '../masking/mask-for-room.js';
import { maskStaleOutput } from '../masking/mask-stale-output.js';
import { elisionLimits } from '../masking/pays-for-cache.js';
import { measureRequest, type RequestMeasure } from './measure-request.js';
import { futileAfter, idleUsage, nextUsage, type UsageInput } from './next-usage.js';
import { storedView, type RequestView, type ViewSource } from '../masking/request-view.js';

export interface GuardRequestInput {
  readonly contents: readonly Content[];
  /** Fingerprints of `contents`, possibly from a cache (used for the split's new anchor). */
  readonly fingerprints: readonly string[];
  /** Fresh fingerprint of one content, for validating a stored watermark. */
  readonly fingerprintAt: FingerprintAt;
  readonly tokens: readonly number[];
  /** Tokens of the system instruction and tool declarations. */
  readonly fixedTokens: number;
  /** Of `fixedTokens`, the estimator's own framing (calibration learns net of it). @default 0 */
  readonly fixedFramingTokens?: number | undefined;
  readonly summary: SummaryRecord | undefined;
  /** A compaction the application asked for (`requestCompaction`): it summarizes, masking alone would not do. */
  readonly manual?: boolean | undefined;
  /** The stored mask watermark (see masking/mask-observations.ts). */
  readonly mask?: MaskRecord | undefined;
  /** Token counts of placeholders by their text, kept across calls by the shell (content-independent figures). */
  readonly maskedTokenMemo?: TokenMemo | undefined;
  readonly usage: UsageRecord;
  readonly policy: ResolvedPolicy;
  readonly window: number;
  /** `config.maxOutputTokens` of the request, if set. */
  readonly maxOutputTokens?: number | undefined;
  readonly summarizerWindow: number;
  readonly tokenizer: Tokenizer;
  /** Pinned context, carried verbatim first in every request and counted in the budget. */
  readonly pinned?: Content | undefined;
  /** Name of the recall tool when the agent has it; the summary then tells the model how to search. */
  readonly recallToolName?: string | undefined;
  /** Runs the summarizer (with timeout and cap); absent means "always use the fallback". */
  readonly summarize?: SummarizeFn | undefined;
  readonly now: number;
  /** A summary prepared in the background for this session and agent (background compaction), if any. */
  readonly prepared?: PreparedHandle | undefined;
  /** Cached over uncached price of the agent's model (masking for cost weighs the cache it breaks). @default DEFAULT_CACHED_PRICE_RATIO */
  readonly cachedPriceRatio?: number | undefined;
}

export interface GuardRequestResult {
  /** Contents to send, or `undefined` to leave the request as ADK built it. */
  readonly contents: Content[] | undefined;
  /** A new summary to persist. */
  readonly summary?: SummaryRecord | undefined;
  /** Why a stored summary was not applied (watermark missing). */
  readonly summaryDiscarded?: string | undefined;
  /** A new mask watermark to persist; `null` clears one that no longer matches the history. */
  readonly mask?: MaskRecord | null | undefined;
  /**
   * Set when this call moved the mask watermark: masked contents, the tokens before and after, and
   * why: `'room'` when a compaction was due, `'cost'` for stale tool output with nothing due.
   */
  readonly masking?:
    | {
        readonly upTo: number;
        readonly tokensBefore: number;
        readonly tokensAfter: number;
        readonly cause: 'room' | 'cost';
      }
    | undefined;
  readonly usage: UsageRecord;
  readonly compaction?: CompactionOutcome | undefined;
  readonly budget: Budget;
  /** Heuristic and calibrated estimate of the request as it will be sent. */
  readonly estimate: number;
  readonly calibrated: number;
  /** Set when the request is sent over the hard limit (counted on every call). */
  readonly overLimit?: string | undefined;
  /** True when `overLimit` has a cause not warned about before (window or fixed part changed); the shell logs it then. */
  readonly overLimitNewCause?: boolean | undefined;
  /** Set when parts were head+tail truncated to fit. */
  readonly shrunk: boolean;
  /** A summary to prepare in the background (nothing is due yet, the threshold is near). */
  readonly preparation?: PreparationRequest | undefined;
  /** Why the prepared summary of the input may not be applied any more: the shell drops it. */
  readonly preparedDropped?: string | undefined;
}

export async function guardRequest(input: GuardRequestInput): Promise<GuardRequestResult> {
  const observed = observe(input);
  const { reason } = observed.decision;
  const prepared =
    input.prepared &&
    checkPrepared(input.prepared, observed.located.summary, input.fingerprintAt, input.contents.length);
  const preparedDropped = prepared?.valid === false ? prepared.reason : undefined;
  if (reason === undefined) {
    const stale = staleMasking(input, observed);
    // A masking for cost sends less than was measured: preparation is planned again on the next call.
    if (stale)
      return {
        ...finish(input, observed, undefined, { masking: stale, view: stale, estimate: stale.estimate }),
        preparedDropped,
      };
    const preparation = prepared?.valid ? undefined : preparationFor(input, observed);
    return { ...sendAsIs(input, observed), preparation, preparedDropped };
  }
  const compacted = await compact(input, observed, reason, prepared);
  return { ...finish(input, observed, reason, compacted), preparedDropped };
}

/** Steps 1-3: what the request is and whether it must be compacted. */
interface Observed {
  readonly fixedTokens: number;
  readonly viewOptions: SummaryContentOptions;
  readonly located: LocatedSummary;
  readonly mask: LocatedMask;
  readonly source: ViewSource;
  readonly view: RequestView;
  readonly measure: RequestMeasure;
  readonly decision: ReasonDecision;
}

/** Steps 4-8: the masking and the new summary, when one is made. */
interface Compacted {
  readonly masking: MaskStep | undefined;
  readonly view: RequestView;
  /** Heuristic estimate of the request without a new summary. */
  readonly estimate: number;
  readonly made?: MadeSummary | undefined;
}

const pinsFirst =
  (pinned: Content | undefined) =>
  (list: Content[]): Content[] =>
    pinned ? [pinned, ...list] : list;

function observe(input: GuardRequestInput): Observed {
  const { contents, tokenizer, policy, usage, window } = input;
  const viewOptions = { recallToolName: input.recallToolName };
  const fixedTokens = input.fixedTokens + (input.pinned ? estimateContentTokens(input.pinned, tokenizer) : 0);
  const fixedFramingTokens = (input.fixedFramingTokens ?? 0) + (input.pinned ? contentFramingTokens(input.pinned) : 0);
  const located = locateStoredSummary(input.fingerprintAt, contents.length, input.summary);
  const { covered } = located.coverage;
  const mask = locateStoredMask(input.fingerprintAt, contents.length, input.mask, policy.maskKeepRecent);
  const memo = input.maskedTokenMemo ?? new TokenMemo(1_024);
  const source: ViewSource = {
    contents,
    tokens: input.tokens,
    covered,
    hint: { recallToolName: input.recallToolName, isReadOnly: (name) => isReadOnlyTool(policy.tools, name) },
    memo,
    tokenizer,
  };
  const view = storedView(source, mask.maskedUpTo);
  const { summary, coverage } = located;
  const { maxOutputTokens } = input;
  const measure = measureRequest({
    summary,
    coverage,
    ...view,
    fixedTokens,
    fixedFramingTokens,
    viewOptions,
    tokenizer,
    usage,
    policy,
    window,
    maxOutputTokens,
  });
  const { budget, estimate, calibrated, factor } = measure;
  const decision = decideReason({
    contents,
    covered,
    policy,
    usage,
    window,
    budget,
    fixedTokens,
    estimate,
    calibrated,
    factor,
  });
  return { fixedTokens, viewOptions, located, mask, source, view, measure, decision };
}

/** No compaction: the stored summary and mask, as they are. */
function sendAsIs(input: GuardRequestInput, observed: Observed): GuardRequestResult {
  const { located, mask, view, measure } = observed;
  const { summary, coverage } = located;
  const withPins = pinsFirst(input.pinned);
  const masked = mask.maskedUpTo > coverage.covered;
  const contents = summary
    ? withPins(injectSummary(summary, uncoveredContents(view.view, coverage), observed.viewOptions))
    : input.pinned || masked
      ? withPins(view.view)
      : undefined;
  return {
    contents,
    summaryDiscarded: located.summaryDiscarded,
    mask: mask.maskUpdate,
    usage: idleUsage(input.usage, measure.estimate, measure.framing, measure.calibrated),
    budget: measure.budget,
    estimate: measure.estimate,
    calibrated: measure.calibrated,
    shrunk: false,
  };
}

async function compact(
  input: GuardRequestInput,
  observed: Observed,
  reason: CompactionReason,
  prepared: PreparedCheck | undefined,
): Promise<Compacted> {
  const { contents, tokenizer, fingerprints, now } = input;
  const { located, measure, decision } = observed;
  const { summary, coverage } = located;
  const plan = planFor(input, observed);
  const masking = maskForRoom({
    source: observed.source,
    coverage,
    maskedUpTo: observed.mask.maskedUpTo,
    reason,
    manual: input.manual === true,
    keepRecent: input.policy.maskKeepRecent,
    fixedTokens: observed.fixedTokens,
    summaryTokens: measure.summaryTokens,
    target: plan.maskTarget,
    fingerprints,
    previous: input.mask,
    now,
  });
  const view = masking ?? observed.view;
  const estimate = masking?.estimate ?? measure.estimate;
  const split = chooseSplit({
    contents,
    viewTokens: view.viewTokens,
    coverage,
    reason,
    heldBack: decision.heldBack,
    masking,
    hasSummary: summary !== undefined,
    summaryCap: plan.summaryCap,
    tailBudget: plan.tailBudget,
    keepFrom: decision.sliding?.keepFrom,
  });
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
    // The sliding window's schedule compacts for structure: a summary prepared for room does not fit it.
    prepared:
      input.prepared && prepared?.valid && reason !== 'schedule'
        ? { handle: input.prepared, coverage: { covered: prepared.covered, keptAt: prepared.keptAt } }
        : undefined,
  });
  return { masking, view, estimate, made };
}

/** Masking for cost when nothing is due (masking/mask-stale-output.ts); sent through the compaction's last steps, no summary. */
function staleMasking(input: GuardRequestInput, observed: Observed): MaskStep | undefined {
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
    },
    source: observed.source,
    coverage: observed.located.coverage,
    maskedUpTo: observed.mask.maskedUpTo,
    fixedTokens: observed.fixedTokens,
    summaryTokens: observed.measure.summaryTokens,
    fingerprints: input.fingerprints,
    previous: input.mask,
    now: input.now,
  });
}

/** Background compaction: what to summarize ahead of the threshold, if the estimate is near it. */
function preparationFor(input: GuardRequestInput, observed: Observed): PreparationRequest | undefined {
  const { measure, located, mask } = observed;
  return planPreparation({
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
    previous: located.summary,
    mask: input.mask,
    fixedTokens: observed.fixedTokens,
    summaryTokens: measure.summaryTokens,
    fingerprints: input.fingerprints,
    now: input.now,
  });
}

function planFor(input: GuardRequestInput, observed: Observed): CompactionPlan {
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

/** Steps 9-10: what is sent, what it cost, and the records (`reason` undefined: a masking for cost). */
function finish(
  input: GuardRequestInput,
  observed: Observed,
  reason: CompactionReason | undefined,
  compacted: Compacted,
): GuardRequestResult {
  const { usage } = input;
  const { fixedTokens, measure, located } = observed;
  const { factor, budget } = measure;
  const { made, masking } = compacted;
  const { composed, fitted } = composeAndFit(input, observed, reason, compacted);
  const sentCalibrated = Math.ceil(fitted.estimate * factor);
  const overLimit = overLimitMessage(sentCalibrated, budget, fixedTokens, factor);
  const tokensBefore = measure.calibrated;
  const compaction =
    made && composed.compacted && reason
      ? buildCompactionOutcome({
          reason,
          coveredFrom: located.coverage.covered,
          ...made,
          tokensBefore,
          tokensAfter: sentCalibrated,
        })
      : undefined;
  // The masking's own effect is reported when a summary followed it; otherwise it is what was sent.
  const maskingAfter = (step: MaskStep): number => (compaction ? Math.ceil(step.estimate * factor) : sentCalibrated);
  const overLimitCause = overLimit ? `${budget.window}:${fixedTokens}` : usage.overLimitCause;
  const contents = pinsFirst(input.pinned)(fitted.sent);
  return {
    contents,
    summary: compaction ? made?.summary.record : undefined,
    summaryDiscarded: located.summaryDiscarded,
    mask: masking?.record ?? observed.mask.maskUpdate,
    masking: masking && {
      upTo: masking.upTo,
      tokensBefore,
      tokensAfter: maskingAfter(masking),
      cause: reason ? 'room' : 'cost',
    },
    usage: usageAfter(input, observed, reason, composed.estimate, {
      compacted: compaction !== undefined,
      masked: masking !== undefined,
      discarded: composed.discarded,
      sentEstimate: fitted.estimate,
      sentFraming: sentFraming(input, contents),
      sentCalibrated,
      overLimit: overLimit !== undefined,
      overLimitCause,
    }),
    compaction,
    budget,
    estimate: fitted.estimate,
    calibrated: sentCalibrated,
    overLimit,
    overLimitNewCause: overLimit !== undefined && overLimitCause !== usage.overLimitCause,
    shrunk: fitted.shrunk,
  };
}

/** The estimator's framing of a reduced request (what is sent as measured has `measure.framing`). */
function sentFraming(input: GuardRequestInput, contents: readonly Content[]): number {
  return (input.fixedFramingTokens ?? 0) + contentsFramingTokens(contents);
}

/** Step 9: the request as composed (a summary that came out larger is discarded), then shrunk to fit. */
function composeAndFit(
  input: GuardRequestInput,
  observed: Observed,
  reason: CompactionReason | undefined,
  compacted: Compacted,
): { composed: Composed; fitted: Shrunk } {
  const { tokenizer } = input;
  const { fixedTokens, measure, located, viewOptions } = observed;
  const { factor, budget } = measure;
  const { made } = compacted;
  const composed = composeRequest({
    view: compacted.view.view,
    viewTokens: compacted.view.viewTokens,
    previous: located,
    next: made && { summary: made.summary.record, coverage: made.split.coverage },
    estimate: compacted.estimate,
    summaryTokens: measure.summaryTokens,
    keepLarger: reason === 'schedule',
    fixedTokens,
    tokenizer,
    viewOptions,
  });
  const summarized = composed.summary !== undefined;
  const fitted = shrinkToFit({
    sent: composed.sent,
    sentTokens: composed.sentTokens,
    estimate: composed.estimate,
    summarized,
    fixedTokens,
    factor,
    budget,
    tokenizer,
  });
  return { composed, fitted };
}

/** What was sent, as the usage record counts it. */
type SentFigures = Omit<UsageInput, 'usage' | 'isCalibrated' | 'factor' | 'futileCompaction'>;

/** `viewEstimate`: heuristic tokens of the request before shrinking. */
function usageAfter(
  input: GuardRequestInput,
  observed: Observed,
  reason: CompactionReason | undefined,
  viewEstimate: number,
  sent: SentFigures,
): UsageRecord {
  const { usage } = input;
  const { decision, measure, fixedTokens } = observed;
  // Nothing was due (a masking for cost): a futile attempt is still remembered as it was.
  const futileCompaction =
    reason === undefined
      ? usage.futileCompaction
      : futileAfter({
          previous: usage.futileCompaction,
          reason,
          heldBack: decision.heldBack,
          conditions: decision.conditions,
          threshold: measure.budget.threshold,
          safetyLine: decision.safetyLine,
          sentCalibrated: sent.sentCalibrated,
          viewEstimate,
          fixedTokens,
        });
  return nextUsage({ ...sent, usage, isCalibrated: measure.isCalibrated, factor: measure.factor, futileCompaction });
}
