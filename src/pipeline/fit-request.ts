/**
 * Step 9 of the decision: what is sent. The summary (new or stored) and the
 * contents it leaves; a new summary that would not make the request smaller
 * than not compacting (by the heuristic estimate and by the calibrated one,
 * estimate/reduced-calibration.ts) is discarded, on the sliding window's
 * schedule one that would make it larger; then, if the request still does not
 * fit under the threshold, the largest parts are shrunk around the user's
 * messages and the summary.
 *
 * The contents' token counts come with the view and go along with what is
 * sent: only a content made here (a new summary, a cut part) is counted, so a
 * message of 20,000 parts is not tokenized again at every step.
 */
import type { Content } from '@google/genai';
import type { Budget } from '../budget/compute-budget.js';
import { isUserRequest, latestUserRequestIndex } from '../content/content-shape.js';
import {
  injectSummary,
  summaryPosition,
  withSummaryAt,
  type SummaryContentOptions,
} from '../summary/inject-summary.js';
import { shrinkAroundRequest } from '../shrink/around-request.js';
import { uncoveredContents, type SummaryCoverage } from '../split/coverage.js';
import { estimateContentTokens } from '../estimate/estimate-content.js';
import type { Tokenizer } from '../estimate/tokenizer.js';
import { calibrateReduced } from '../estimate/reduced-calibration.js';
import { isFirstCall, type FirstCallUsage } from '../usage/first-call.js';
import type { SummaryRecord } from '../summary/stored-summary.js';

export interface ComposeInput {
  readonly view: readonly Content[];
  /** Tokens of each content of `view`. */
  readonly viewTokens: readonly number[];
  /** The stored summary and its coverage, sent when no new one is kept. */
  readonly previous: { readonly summary: SummaryRecord | undefined; readonly coverage: SummaryCoverage };
  readonly next: { readonly summary: SummaryRecord; readonly coverage: SummaryCoverage } | undefined;
  /** Heuristic estimate of the request without the new summary (the stored one and the view it leaves). */
  readonly estimate: number;
  /** Tokens of the stored summary's content as sent with `view` (0 without one). */
  readonly summaryTokens: number;
  /**
   * Keep a new summary that leaves the request the same size (the sliding window's schedule compacts for
   * structure, not room); a summary that makes it larger is never kept.
   */
  readonly keepEqual: boolean;
  /** The request as measured (heuristic and calibrated), and the calibration factor: a kept summary must lower both. */
  readonly measured: { readonly estimate: number; readonly calibrated: number };
  readonly factor: number;
  readonly fixedTokens: number;
  readonly tokenizer: Tokenizer;
  readonly viewOptions: SummaryContentOptions;
}

export interface Composed {
  readonly sent: Content[];
  /** Tokens of each content of `sent`. */
  readonly sentTokens: number[];
  readonly estimate: number;
  /** The summary sent, if any, and its index in `sent` (inject-summary.ts `summaryPosition`). */
  readonly summary: SummaryRecord | undefined;
  readonly summaryAt?: number | undefined;
  /** Whether the new summary is kept. */
  readonly compacted: boolean;
  readonly discarded: boolean;
  /** When a new summary was discarded: the calibrated tokens without and with it (no conversation text). */
  readonly discardedFigures?: { readonly without: number; readonly with: number } | undefined;
}

interface Placed {
  readonly sent: Content[];
  readonly sentTokens: number[];
  readonly summaryAt?: number | undefined;
}

/** The view with `summary` placed in what it leaves; `tokens`, the summary's count when known (measured before). */
function placeSummary(
  input: ComposeInput,
  summary: SummaryRecord,
  coverage: SummaryCoverage,
  tokens: number | undefined,
): Placed & { readonly summaryAt: number } {
  const tail = uncoveredContents(input.view, coverage);
  const summaryAt = summaryPosition(summary, tail);
  const sent = injectSummary(summary, tail, input.viewOptions);
  const summaryTokens = tokens ?? estimateContentTokens(sent[summaryAt]!, input.tokenizer);
  const sentTokens = withSummaryAt(uncoveredContents(input.viewTokens, coverage), summaryAt, summaryTokens);
  return { sent, sentTokens, summaryAt };
}

export function composeRequest(input: ComposeInput): Composed {
  const { view, viewTokens, previous, next } = input;
  // The stored summary and its view are what `input.estimate` measured: their counts are known.
  const withPrevious = (): Placed =>
    previous.summary
      ? placeSummary(input, previous.summary, previous.coverage, input.summaryTokens)
      : { sent: view.slice(), sentTokens: viewTokens.slice() };
  if (!next) {
    return {
      ...withPrevious(),
      estimate: input.estimate,
      summary: previous.summary,
      compacted: false,
      discarded: false,
    };
  }
  // Only the new summary's content is counted; the contents it leaves keep their counts.
  const { sent, sentTokens, summaryAt } = placeSummary(input, next.summary, next.coverage, undefined);
  let estimate = input.fixedTokens;
  for (const tokens of sentTokens) estimate += tokens;
  const figures = calibratedFigures(input, estimate, sentTokens[summaryAt] ?? 0);
  if (keeps(input, estimate, figures))
    return { sent, sentTokens, estimate, summary: next.summary, summaryAt, compacted: true, discarded: false };
  // The summary would not make the request smaller: keep the previous state rather than grow the request.
  return {
    ...withPrevious(),
    estimate: input.estimate,
    summary: previous.summary,
    compacted: false,
    discarded: true,
    discardedFigures: figures,
  };
}

/** Calibrated tokens of the request without the new summary (the masked view, if masked) and with it. */
function calibratedFigures(input: ComposeInput, estimate: number, summaryTokens: number) {
  const { measured, factor } = input;
  return {
    without: calibrateReduced({ measured, estimate: input.estimate, added: 0, factor }),
    with: calibrateReduced({ measured, estimate, added: summaryTokens, factor }),
  };
}

/** Whether the new summary makes the request smaller (or, on the schedule, no larger) by both measures. */
function keeps(input: ComposeInput, estimate: number, figures: { without: number; with: number }): boolean {
  if (input.keepEqual) return estimate <= input.estimate && figures.with <= figures.without;
  return estimate < input.estimate && figures.with < figures.without;
}

interface ShrinkInput {
  readonly sent: Content[];
  /** Tokens of each content of `sent`. */
  readonly sentTokens: readonly number[];
  readonly estimate: number;
  /** The index of the summary in `sent`, if any (cut last, like the user's messages). */
  readonly summaryAt: number | undefined;
  readonly fixedTokens: number;
  readonly factor: number;
  /**
   * The correction the user's current message is held to the hard limit by (`messageFactor`): at most
   * `factor`. @default factor
   */
  readonly messageFactor?: number | undefined;
  readonly budget: Budget;
  readonly tokenizer: Tokenizer;
}

export interface Shrunk {
  readonly sent: Content[];
  readonly estimate: number;
  readonly shrunk: boolean;
  /** The user's current message went whole on `messageFactor`: under the hard limit by the estimate, over it by `factor`. */
  readonly wholeOnEstimate?: boolean | undefined;
  /**
   * The request is under the hard limit by the estimate, over it by `factor`, held there on `messageFactor`: the
   * message whole (`wholeOnEstimate`) or cut only to the hard limit (`messageCut`). Not a request over the limit.
   */
  readonly heldOnEstimate?: boolean | undefined;
  /** Set when the user's current message itself was cut head and tail: its estimate before and after. */
  readonly messageCut?: MessageCut | undefined;
  /** Set when a content other than the user's current message was cut (a tool result, a model's call's arguments). */
  readonly partsCut?: boolean | undefined;
}

/** Tokens, by the estimate, of the user's current message before and after it was cut to fit. */
export interface MessageCut {
  readonly before: number;
  readonly after: number;
}

/**
 * The correction the user's current message is held to the hard limit by: the calibrated one, except on an
 * agent's first call of a session, where the shell allows it (`allowed`: a rejection is retried with the message
 * cut; adk/hooks/before-model-guard.ts), where it is the estimate itself (1). Before a count of the agent's own
 * request the correction is the built-in default, a guess that errs high for a provider whose tokenizer counts near
 * o200k's, or another agent's of the session (usage/sibling-correction.ts), whose request may count higher than
 * this one (JSON against prose: review 7). Cutting a message that fits loses text the model is asked about, and the
 * first answer is given without it. The retry holds the message to the correction learned from the rejection, or
 * to the default again (usage.forceCompaction).
 */
export function messageFactor(usage: FirstCallUsage, factor: number, allowed: boolean): number {
  return allowed && isFirstCall(usage) ? Math.min(1, factor) : factor;
}

export function shrinkToFit(input: ShrinkInput): Shrunk {
  const { sent, factor, budget, fixedTokens } = input;
  if (Math.ceil(input.estimate * factor) <= budget.threshold) return { sent, estimate: input.estimate, shrunk: false };
  const heldBy = Math.min(factor, input.messageFactor ?? factor);
  const requestAt = requestIndex(sent, input.summaryAt);
  // The summary and the user's messages are cut last; the current message only if it cannot fit at all.
  const result = shrinkAroundRequest({
    contents: sent,
    budget: Math.max(0, Math.floor(budget.threshold / factor) - fixedTokens),
    hardBudget: Math.max(0, Math.floor(budget.hardLimit / heldBy) - fixedTokens),
    tokenizer: input.tokenizer,
    tokens: input.sentTokens,
    protect: (content, index) => index === input.summaryAt || isUserRequest(content),
    requestAt,
    // Held on the estimate, a rejection is retried with the message cut deeper: cut only what is over the hard limit.
    cutToHard: heldBy < factor,
  });
  const changed = result.contents.some((content, i) => content !== sent[i]);
  const estimate = changed ? fixedTokens + result.tokens : input.estimate;
  const messageKept = requestAt >= 0 && result.contents[requestAt] === sent[requestAt];
  const heldOnEstimate =
    heldBy < factor &&
    requestAt >= 0 &&
    estimate <= budget.hardLimit &&
    Math.ceil(estimate * factor) > budget.hardLimit;
  const messageCut =
    requestAt >= 0 && requestAt !== input.summaryAt && !messageKept
      ? cutFigures(input, result.contents[requestAt]!, requestAt)
      : undefined;
  const partsCut = result.contents.some((content, i) => content !== sent[i] && i !== requestAt);
  const shrunk = { sent: changed ? result.contents : sent, estimate, shrunk: changed, messageCut, partsCut };
  return { ...shrunk, heldOnEstimate, wholeOnEstimate: heldOnEstimate && messageKept };
}

/** What the decision reports of a shrink: whether anything was cut, and whether more than the user's message. */
export function shrinkFlags(fitted: Shrunk): { shrunk: boolean; partsCut?: true } {
  return { shrunk: fitted.shrunk, ...(fitted.partsCut === true && { partsCut: true }) };
}

/** The user's current message's tokens before and after it was cut (the cut content is counted once, here). */
function cutFigures(input: ShrinkInput, cut: Content, at: number): MessageCut {
  return {
    before: input.sentTokens[at] ?? estimateContentTokens(input.sent[at]!, input.tokenizer),
    after: estimateContentTokens(cut, input.tokenizer),
  };
}

/**
 * The user's current message in `sent`: the latest user content that is not the summary (placed after the
 * message it keeps, it is a later user content), else the summary, which then restates the request.
 */
function requestIndex(sent: readonly Content[], summaryAt: number | undefined): number {
  for (let i = sent.length - 1; i >= 0; i--) if (i !== summaryAt && isUserRequest(sent[i])) return i;
  return latestUserRequestIndex(sent);
}

/**
 * Why the request goes out over the hard limit, or `undefined` when it does not. `added`: of `fixedTokens`, what the
 * agent's callbacks or plugins after the guard added to the last request (usage/agent-additions.ts), named apart.
 */
export function overLimitMessage(
  sentCalibrated: number,
  budget: Budget,
  fixedTokens: number,
  factor: number,
  added = 0,
): string | undefined {
  if (sentCalibrated <= budget.hardLimit) return undefined;
  const own = `system instruction, tools and pins alone are ~${Math.ceil((fixedTokens - added) * factor)}`;
  const others =
    added > 0
      ? `, and what the agent's own before-model callbacks or plugins registered after the guard added to the last request ~${Math.ceil(added * factor)}`
      : '';
  return (
    `request is ~${sentCalibrated} tokens after compaction and shrinking, over the hard limit of ${budget.hardLimit} ` +
    `(window ${budget.window}); ${own}${others}`
  );
}
