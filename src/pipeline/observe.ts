/**
 * Steps 1-3 of the decision: where the stored summary and mask end, the view the model would get,
 * its estimate, calibration and budget, and whether to compact, and why.
 */
import type { Content } from '@google/genai';
import type { SummaryContentOptions } from '../summary/inject-summary.js';
import { isReadOnlyTool } from '../config/read-only-tool.js';
import { contentFramingTokens, estimateContentTokens } from '../estimate/estimate-content.js';
import { TokenMemo } from '../estimate/estimate-request.js';
import { maskingFrom, storedView, type RequestView, type ViewSource } from '../masking/request-view.js';
import { decideReason, type ReasonDecision } from '../trigger/decide-reason.js';
import { inFlightRequestTokens } from '../split/coverage.js';
import type { GuardRequestInput } from './contract.js';
import { locateStoredMask, locateStoredSummary, type LocatedMask, type LocatedSummary } from './locate-stored.js';
import { measureRequest, type RequestMeasure } from './measure-request.js';

/** What the request is and whether it must be compacted. */
export interface Observed {
  readonly fixedTokens: number;
  readonly viewOptions: SummaryContentOptions;
  readonly located: LocatedSummary;
  readonly mask: LocatedMask;
  readonly source: ViewSource;
  readonly view: RequestView;
  readonly measure: RequestMeasure;
  readonly decision: ReasonDecision;
}

/** Pinned context first, when there is any. */
export const pinsFirst =
  (pinned: Content | undefined) =>
  (list: Content[]): Content[] =>
    pinned ? [pinned, ...list] : list;

/**
 * A stored summary made by another turn running at the same time may cover this turn's own message: for this call it
 * covers only what comes before that message (the rest is sent whole, a repeat, never a loss).
 */
function ownRequestKept(located: LocatedSummary, ownAt: number | undefined): LocatedSummary {
  const { covered, keptAt } = located.coverage;
  if (ownAt === undefined || covered <= ownAt || keptAt === ownAt) return located;
  return {
    ...located,
    coverage: keptAt !== undefined && keptAt < ownAt ? { covered: ownAt, keptAt } : { covered: ownAt },
  };
}

/** Where the stored summary ends in the request (locate-stored.ts), before this turn's own message when it must be. */
function locatedSummary(input: GuardRequestInput, partial: boolean): LocatedSummary {
  const { contents } = input;
  const inView = { contents, answers: input.applicationAnswers ?? [] };
  const located = locateStoredSummary(input.fingerprintAt, contents.length, input.summary, partial, inView);
  return ownRequestKept(located, input.ownRequestAt);
}

export function observe(input: GuardRequestInput): Observed {
  const { contents, tokenizer, policy, usage, window } = input;
  const viewOptions = { recallToolName: input.recallToolName, pendingCalls: input.pendingCalls };
  // What the agent's own callbacks added to the last request after the guard ran: the guard cannot remove it.
  const added = usage.agentAddedTokens ?? 0;
  const fixedTokens = input.fixedTokens + added + (input.pinned ? estimateContentTokens(input.pinned, tokenizer) : 0);
  const fixedFramingTokens = (input.fixedFramingTokens ?? 0) + (input.pinned ? contentFramingTokens(input.pinned) : 0);
  const partial = input.lateResponseView === true;
  const located = locatedSummary(input, partial);
  const { covered } = located.coverage;
  const mask = locateStoredMask(input.fingerprintAt, contents.length, input.mask, policy.maskKeepRecent, partial);
  const source: ViewSource = {
    contents,
    tokens: input.tokens,
    covered,
    hint: { recallToolName: input.recallToolName, isReadOnly: (name) => isReadOnlyTool(policy.tools, name) },
    memo: input.maskedTokenMemo ?? new TokenMemo(1_024),
    tokenizer,
    fingerprints: input.fingerprints,
    framing: input.framing,
    placeholders: input.placeholders,
  };
  const view = storedView(maskingFrom(source, mask.maskedFrom), mask.maskedUpTo);
  const { summary, coverage } = located;
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
    maxOutputTokens: input.maxOutputTokens,
  });
  const { budget, estimate, calibrated, factor, isCalibrated } = measure;
  const decision = decideReason({
    contents,
    covered,
    policy,
    usage,
    window,
    budget,
    fixedTokens,
    requestTokens: inFlightRequestTokens(contents, input.tokens, located.coverage),
    estimate,
    calibrated,
    factor,
    isCalibrated,
    manual: input.manual,
  });
  return { fixedTokens, viewOptions, located, mask, source, view, measure, decision };
}
