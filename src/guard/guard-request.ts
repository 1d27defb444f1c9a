/**
 * The decision ContextGuard takes on every model call, as a function over
 * plain data: given the request contents as ADK built them, their measures,
 * the stored summary and calibration, it returns the contents to send and the
 * records to persist. The only effect is the summarizer call it is handed.
 *
 * Steps:
 * 1. Locate the summary's watermark in the contents (validated by its anchor).
 * 2. Estimate [summary + contents after the watermark] + system + tools, and
 *    calibrate it with the last real count.
 * 3. Under the threshold: send that view. At or over it (or forced after a
 *    rejected request): choose a split, summarize what the current summary does
 *    not cover yet (falling back to a mechanical summary on any failure),
 *    persist the new summary and watermark, and send [summary + kept tail].
 * 4. Still over the hard limit: shrink the largest parts; if even that cannot
 *    fit (a system prompt or tools larger than the window), send anyway, warn
 *    once and count it. Never loop, never throw.
 */
import type { Content } from '@google/genai';
import { computeBudget, type Budget } from '../budget/compute-budget.js';
import { contentText, isUserRequest, latestUserRequestIndex } from '../content/content-shape.js';
import { buildFallbackSummary } from '../compaction/fallback-summary.js';
import { injectSummary, summaryContent } from '../compaction/inject-summary.js';
import { extractFacts, mergeFacts, parseKeyFacts } from '../memory/durable-facts.js';
import { selectSplit } from '../compaction/select-split.js';
import { planSlidingWindow } from '../compaction/sliding-window.js';
import { shrinkAroundRequest } from '../compaction/shrink-around-request.js';
import { inFlightRequestTokens, newlyCovered, uncoveredContents, uncoveredTokens, type SummaryCoverage } from '../compaction/summary-coverage.js';
import { buildSummaryPrompt, SUMMARY_SYSTEM_INSTRUCTION } from '../compaction/summary-prompt.js';
import type { SummarizeRequest, SummarizerFailureKind, SummaryOutcome } from '../compaction/summarizer.js';
import { calibrate, correctionFactor } from '../estimate/calibration.js';
import { estimateContentTokens } from '../estimate/estimate-content.js';
import { estimateContentsTokens, TokenMemo } from '../estimate/estimate-request.js';
import type { Tokenizer } from '../estimate/tokenizer.js';
import type { ResolvedPolicy } from '../options.js';
import type { CompactionReason } from '../records/compaction-record.js';
import type { SummaryRecord, UsageRecord } from '../state/guard-state.js';
import { RECORD_VERSION } from '../state/guard-state.js';
import { anchorAt, locateSummary, type FingerprintAt } from '../state/watermark.js';
import { compactionMayHelp, type CompactionConditions } from './futile-compaction.js';
import { locateWatermark } from '../state/watermark.js';
import type { MaskRecord } from '../state/mask-record.js';
import { applyMask, maskContent } from '../compaction/mask-observations.js';
import { planMasking } from '../compaction/plan-masking.js';
import { safeJson } from '../estimate/json-text.js';

/** Characters per token assumed when a token budget must become a character budget. */
const CHARS_PER_TOKEN = 3;
/** Tokens the continuation sentence and summary header take, roughly. */
const SUMMARY_FRAMING_TOKENS = 96;
const MIN_SUMMARY_TOKENS = 48;
/** Below this, what a compaction would add to an existing summary cannot pay for a summarizer call. */
const MIN_NEWLY_COVERED_TOKENS = 32;

export interface GuardRequestInput {
  readonly contents: readonly Content[];
  /** Fingerprints of `contents`, possibly from a cache (used for the split's new anchor). */
  readonly fingerprints: readonly string[];
  /** Fresh fingerprint of one content, for validating a stored watermark. */
  readonly fingerprintAt: FingerprintAt;
  readonly tokens: readonly number[];
  /** Tokens of the system instruction and tool declarations. */
  readonly fixedTokens: number;
  readonly summary: SummaryRecord | undefined;
  /** A compaction the application asked for (`requestCompaction`): it summarizes, masking alone would not do. */
  readonly manual?: boolean | undefined;
  /** The stored mask watermark (see compaction/mask-observations.ts). */
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
  readonly summarize?: ((request: Omit<SummarizeRequest, 'signal'>, maxChars: number) => Promise<SummaryOutcome>) | undefined;
  readonly now: number;
}

/** What one compaction did; becomes the audit record and the `onCompaction` payload. */
export interface CompactionOutcome {
  /** What triggered it: the threshold, a rejected request, the sliding window's schedule or its token trigger. */
  readonly reason: CompactionReason;
  /** Raw content indexes summarized by this compaction: [from, to). */
  readonly coveredFrom: number;
  readonly coveredTo: number;
  /** The user's message inside [from, to) that stays verbatim, when the compaction was mid-turn. */
  readonly keptAt?: number | undefined;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly fallback: boolean;
  /** Why the fallback was used, safe to store. */
  readonly fallbackKind?: SummarizerFailureKind | undefined;
  /** The failure's details (a provider's error text can quote the conversation): not stored unless asked for. */
  readonly fallbackReason?: string | undefined;
  readonly summaryTruncated: boolean;
  readonly summarizerPromptTokens?: number | undefined;
  readonly summarizerOutputTokens?: number | undefined;
  readonly droppedFromSummarizerInput: number;
  readonly summaryChars: number;
  /** Durable facts carried by the new summary, and those dropped to respect the bound. */
  readonly facts: number;
  readonly droppedFacts: readonly string[];
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
  /** Set when this call moved the mask watermark: masked contents and the tokens before and after. */
  readonly masking?: { readonly upTo: number; readonly tokensBefore: number; readonly tokensAfter: number } | undefined;
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
}

export async function guardRequest(input: GuardRequestInput): Promise<GuardRequestResult> {
  const { contents, tokens, tokenizer, policy, usage } = input;
  const viewOptions = { recallToolName: input.recallToolName };
  const pinnedTokens = input.pinned ? estimateContentTokens(input.pinned, tokenizer) : 0;
  const fixedTokens = input.fixedTokens + pinnedTokens;
  const withPins = (list: Content[]): Content[] => (input.pinned ? [input.pinned, ...list] : list);

  // 1. Where does the stored summary end?
  let summary = input.summary;
  let coverage: SummaryCoverage = { covered: 0 };
  let summaryDiscarded: string | undefined;
  if (summary) {
    const match = locateSummary(input.fingerprintAt, contents.length, summary);
    if (match.kind === 'missing') {
      summaryDiscarded = match.reason;
      summary = undefined;
    } else {
      coverage = match;
    }
  }
  const { covered } = coverage;

  // ... and the mask of old tool results? `view` and `viewTokens` are the contents as the model gets them.
  const maskHint = { recallToolName: input.recallToolName };
  const maskMemo = input.maskedTokenMemo ?? new TokenMemo(1_024);
  let maskedUpTo = 0;
  let maskUpdate: MaskRecord | null | undefined;
  if (input.mask && policy.maskKeepRecent > 0) {
    const match = locateWatermark(input.fingerprintAt, contents.length, input.mask.upTo, input.mask.anchor);
    if (match.kind === 'missing') maskUpdate = null;
    else maskedUpTo = match.covered;
  }
  const tokensOfView = (content: Content, index: number): number =>
    content === contents[index] ? (tokens[index] ?? 0) : maskMemo.remember(safeJson(content.parts), () => estimateContentTokens(content, tokenizer));
  const viewOf = (upTo: number): { view: Content[]; viewTokens: number[] } => {
    const view = applyMask(contents, tokens, covered, upTo, maskHint);
    return { view, viewTokens: view.map(tokensOfView) };
  };
  let { view, viewTokens } = maskedUpTo > covered ? viewOf(maskedUpTo) : { view: contents.slice(), viewTokens: tokens.slice() };

  // 2. Estimate the view the model would get.
  let tail = uncoveredContents(view, coverage);
  const viewSummaryTokens = summary ? estimateContentTokens(summaryContent(summary, tail, viewOptions), tokenizer) : 0;
  let estimate = fixedTokens + viewSummaryTokens + uncoveredTokens(viewTokens, coverage);
  const { factor, calibrated: isCalibrated } = correctionFactor(usage, policy.defaultCorrection);
  const calibrated = calibrate(estimate, usage, policy.defaultCorrection);
  const budget = computeBudget({
    window: input.window,
    bufferTokens: policy.bufferTokens,
    bufferRatio: policy.bufferRatio,
    outputReserve: Math.max(policy.reserveOutputTokens, input.maxOutputTokens ?? 0),
    calibrated: isCalibrated,
    uncalibratedThresholdRatio: policy.uncalibratedThresholdRatio,
    hardLimitRatio: policy.hardLimitRatio,
  });
  const modelCalls = usage.modelCalls + 1;

  // The sliding window compacts on its schedule or its token trigger, below the threshold.
  const sliding =
    policy.strategy === 'sliding-window'
      ? planSlidingWindow({ contents, covered, invocationThreshold: policy.invocationThreshold, overlapSize: policy.overlapSize })
      : undefined;
  const scheduleDue = sliding?.due === true && usage.compactions < policy.maxCompactions;
  const safetyLine = Math.floor(policy.safetyRatio * input.window);
  const safetyDue = sliding !== undefined && calibrated >= safetyLine;
  let reason: CompactionReason | undefined;
  if (usage.forceCompaction) reason = 'forced';
  else if (calibrated >= budget.threshold) reason = 'threshold';
  else if (safetyDue) reason = 'safety-ratio';
  else if (scheduleDue) reason = 'schedule';
  // A compaction for room that was futile under the same conditions is not retried (see futile-compaction.ts).
  const conditions: CompactionConditions = { window: input.window, fixedTokens, correction: factor, contentTokens: estimate - fixedTokens };
  const pressure = { calibrated, fixedCalibrated: Math.ceil(fixedTokens * factor), hardLimit: budget.hardLimit, window: budget.window };
  const heldBack = (reason === 'threshold' || reason === 'safety-ratio') && !compactionMayHelp(usage.futileCompaction, conditions, pressure);
  if (heldBack && reason === 'safety-ratio') reason = scheduleDue ? 'schedule' : undefined;

  if (reason === undefined) {
    return {
      contents: summary ? withPins(injectSummary(summary, tail, viewOptions)) : input.pinned || maskedUpTo > covered ? withPins(view) : undefined,
      summaryDiscarded,
      mask: maskUpdate,
      usage: { ...usage, modelCalls, sentEstimate: estimate, lastCalibrated: calibrated, forceCompaction: false },
      budget,
      estimate,
      calibrated,
      shrunk: false,
    };
  }

  // 3. Compact. Budgets below are in heuristic (uncalibrated) tokens.
  const room = Math.max(0, Math.floor(budget.threshold / factor) - fixedTokens);
  // The summary's share is taken from the room the turn's message leaves: that message always stays.
  const summaryRoom = Math.max(0, room - inFlightRequestTokens(contents, tokens, coverage));
  const summaryCap = Math.max(MIN_SUMMARY_TOKENS, Math.min(policy.summaryMaxTokens, Math.floor(summaryRoom * 0.25)));
  // Durable facts get up to half the summary's size on top of it.
  const factChars = Math.floor(summaryCap * CHARS_PER_TOKEN * 0.5);
  const tailBudget = Math.max(0, Math.floor(room * policy.compactTargetRatio) - Math.ceil(summaryCap * 1.5) - SUMMARY_FRAMING_TOKENS);

  // 3a. Mask old tool results first, with no model call (not on the sliding window's schedule, which compacts for structure).
  let masking: GuardRequestResult['masking'];
  let maskingEnough = false;
  if (reason !== 'schedule' && !input.manual && policy.maskKeepRecent > 0) {
    const keptTokens = coverage.keptAt === undefined ? 0 : (tokens[coverage.keptAt] ?? 0);
    const plan = planMasking({
      contents,
      tokens,
      covered,
      maskedUpTo,
      maskedTokensAt: (index) => tokensOfView(maskContent(contents[index] ?? {}, maskHint, tokens[index] ?? 0), index),
      keepRecent: policy.maskKeepRecent,
      meetsTarget: (contentTokens) => viewSummaryTokens + keptTokens + contentTokens <= Math.floor(room * policy.compactTargetRatio),
    });
    if (plan) {
      maskedUpTo = plan.upTo;
      ({ view, viewTokens } = viewOf(maskedUpTo));
      tail = uncoveredContents(view, coverage);
      estimate = fixedTokens + viewSummaryTokens + uncoveredTokens(viewTokens, coverage);
      masking = { upTo: plan.upTo, tokensBefore: calibrated, tokensAfter: Math.ceil(estimate * factor) };
      maskUpdate = { upTo: plan.upTo, anchor: anchorAt((index) => input.fingerprints[index], plan.upTo), maskings: (input.mask?.maskings ?? 0) + 1, createdAt: input.now };
      maskingEnough = plan.enough;
    }
  }
  // On schedule the window keeps its overlap turns; under token pressure it keeps what fits, like the threshold.
  const keepFrom = reason === 'schedule' ? sliding?.keepFrom : undefined;
  const candidate = selectSplit({ contents, tokens: viewTokens, covered, keptAt: coverage.keptAt, tailBudget: keepFrom === undefined ? tailBudget : Number.POSITIVE_INFINITY, keepFrom });
  // A compaction for room must be able to make the request smaller. Covering a single short message
  // (next to an oversized system prompt, say) would grow the request and call the summarizer for
  // nothing, so shrinking is the only remedy then; a result that still comes out larger is undone
  // below. The sliding window's schedule compacts for structure, not room, and is exempt. After a
  // masking, a summary is made only when what it would replace is larger than a summary.
  const nextCoverage: SummaryCoverage | undefined = candidate ? { covered: candidate.split, keptAt: candidate.keptAt } : undefined;
  const toCover = nextCoverage ? newlyCovered(coverage, nextCoverage) : [];
  const gain = toCover.reduce((total, index) => total + (viewTokens[index] ?? 0), 0);
  const minimumGain = masking ? summaryCap + SUMMARY_FRAMING_TOKENS : summary ? MIN_NEWLY_COVERED_TOKENS : MIN_SUMMARY_TOKENS;
  const split = !heldBack && !maskingEnough && candidate && nextCoverage && (reason === 'schedule' || gain > minimumGain) ? nextCoverage : undefined;

  let nextSummary = summary;
  let compaction: CompactionOutcome | undefined;
  let sentCoverage = coverage;
  if (split) {
    const requestIndex = latestUserRequestIndex(contents);
    const currentRequest = requestIndex >= 0 ? contentText(contents[requestIndex]) : summary?.currentRequest;
    // What the model was last shown: masked tool results reach the summarizer masked (they are recallable, and
    // re-reading them would make the summary cost what masking saved).
    const toSummarize = toCover.flatMap((index) => view[index] ?? []);
    const maxChars = summaryCap * CHARS_PER_TOKEN;
    const prompt = buildSummaryPrompt({
      previousSummary: summary?.text,
      contents: toSummarize,
      currentRequest,
      maxPromptTokens: Math.max(256, Math.floor((input.summarizerWindow * policy.summarizerInputRatio) / factor) - summaryCap),
      maxSummaryTokens: summaryCap,
      tokenizer,
    });
    let outcome: SummaryOutcome = { ok: false, kind: 'unavailable', reason: 'no summarizer available' };
    if (input.summarize) {
      try {
        outcome = await input.summarize({ prompt: prompt.prompt, systemInstruction: SUMMARY_SYSTEM_INSTRUCTION, maxOutputTokens: summaryCap }, maxChars);
      } catch (error) {
        // Whatever the injected summarizer does, the turn gets the mechanical summary, never an exception.
        outcome = { ok: false, kind: 'failed', reason: `failed: ${error instanceof Error ? error.message : String(error)}` };
      }
    }
    const text = outcome.ok
      ? outcome.text
      : buildFallbackSummary({ previousSummary: summary?.text, contents: toSummarize, currentRequest, maxChars });
    const compactionNumber = (summary?.compactions ?? 0) + 1;
    const facts = mergeFacts(summary?.facts ?? [], [...extractFacts(toSummarize), ...(outcome.ok ? parseKeyFacts(text) : [])], compactionNumber, {
      maxFacts: 60,
      maxChars: factChars,
    });
    nextSummary = {
      version: RECORD_VERSION,
      text,
      covered: split.covered,
      anchor: anchorAt((index) => input.fingerprints[index], split.covered),
      kept: split.keptAt === undefined ? undefined : { at: split.keptAt, fingerprint: input.fingerprints[split.keptAt] ?? '' },
      currentRequest,
      compactions: compactionNumber,
      fallback: !outcome.ok,
      createdAt: input.now,
      facts: facts.facts,
    };
    sentCoverage = split;
    compaction = {
      reason,
      coveredFrom: covered,
      coveredTo: split.covered,
      keptAt: split.keptAt,
      tokensBefore: calibrated,
      tokensAfter: 0,
      fallback: !outcome.ok,
      fallbackKind: outcome.ok ? undefined : outcome.kind,
      fallbackReason: outcome.ok ? undefined : outcome.reason,
      summaryTruncated: outcome.ok ? outcome.truncated : false,
      summarizerPromptTokens: outcome.ok ? outcome.promptTokens : undefined,
      summarizerOutputTokens: outcome.ok ? outcome.outputTokens : undefined,
      droppedFromSummarizerInput: prompt.droppedContents,
      summaryChars: text.length,
      facts: facts.facts.length,
      droppedFacts: facts.dropped,
    };
  }

  // 4. Build what is sent, shrinking if it still does not fit.
  let sent: Content[] = nextSummary ? injectSummary(nextSummary, uncoveredContents(view, sentCoverage), viewOptions) : view.slice();
  let sentEstimate = fixedTokens + estimateContentsTokens(sent, tokenizer);
  let discarded = false;
  if (compaction && reason !== 'schedule' && sentEstimate >= estimate) {
    discarded = true;
    // The summary came out no smaller than what it replaced: keep the previous state rather than grow the request.
    nextSummary = summary;
    compaction = undefined;
    sent = summary ? injectSummary(summary, tail, viewOptions) : view.slice();
    sentEstimate = estimate;
  }
  const viewEstimate = sentEstimate;
  let shrunk = false;
  const fits = (heuristic: number): boolean => Math.ceil(heuristic * factor) <= budget.threshold;
  if (!fits(sentEstimate)) {
    const contentBudget = Math.max(0, Math.floor(budget.threshold / factor) - fixedTokens);
    // The summary and the user's messages are cut last; the current message only if it cannot fit at all.
    const result = shrinkAroundRequest({
      contents: sent,
      budget: contentBudget,
      hardBudget: Math.max(0, Math.floor(budget.hardLimit / factor) - fixedTokens),
      tokenizer,
      protect: (content, index) => (nextSummary !== undefined && index === 0) || isUserRequest(content),
    });
    if (result.contents.some((content, i) => content !== sent[i])) {
      sent = result.contents;
      sentEstimate = fixedTokens + result.tokens;
      shrunk = true;
    }
  }
  const sentCalibrated = Math.ceil(sentEstimate * factor);
  let overLimit: string | undefined;
  if (sentCalibrated > budget.hardLimit) {
    overLimit =
      `request is ~${sentCalibrated} tokens after compaction and shrinking, over the hard limit of ${budget.hardLimit} ` +
      `(window ${budget.window}); system instruction, tools and pins alone are ~${Math.ceil(fixedTokens * factor)}`;
  }
  if (compaction) compaction = { ...compaction, tokensAfter: sentCalibrated };
  else if (masking) masking = { ...masking, tokensAfter: sentCalibrated };
  // An attempt for room that still does not reach its target is remembered; one that does clears the record.
  let futileCompaction = usage.futileCompaction;
  if (!heldBack && reason !== 'schedule') {
    const target = reason === 'safety-ratio' ? safetyLine - 1 : budget.threshold;
    futileCompaction = sentCalibrated > target ? { ...conditions, contentTokens: viewEstimate - fixedTokens } : undefined;
  }
  const overLimitCause = overLimit ? `${budget.window}:${fixedTokens}` : usage.overLimitCause;

  const nextUsage: UsageRecord = {
    ...usage,
    modelCalls,
    // The pre-compaction real count would pin every later estimate above the threshold: clear the
    // pair, keep what it taught us as the prior (see calibration.ts).
    // A masking makes the last real count stale in the same way.
    ...(compaction || masking ? { realPromptTokens: undefined, lastEstimate: undefined, learnedCorrection: isCalibrated ? factor : usage.learnedCorrection } : {}),
    maskings: usage.maskings + (masking ? 1 : 0),
    sentEstimate,
    lastCalibrated: sentCalibrated,
    compactions: usage.compactions + (compaction ? 1 : 0),
    discardedCompactions: usage.discardedCompactions + (discarded ? 1 : 0),
    overLimitCalls: usage.overLimitCalls + (overLimit ? 1 : 0),
    forceCompaction: false,
    futileCompaction,
    overLimitCause,
  };
  return {
    contents: withPins(sent),
    summary: compaction ? nextSummary : undefined,
    summaryDiscarded,
    mask: maskUpdate,
    masking,
    usage: nextUsage,
    compaction,
    budget,
    estimate: sentEstimate,
    calibrated: sentCalibrated,
    overLimit,
    overLimitNewCause: overLimit !== undefined && overLimitCause !== usage.overLimitCause,
    shrunk,
  };
}
