/**
 * The agent's request as it would be sent before this call's compaction (the stored summary and
 * mask applied: the prefix the provider cached on the previous call), and its leading part a new
 * summary covers, for a summary asked of the agent's own model (summary/summary-from-request.ts).
 */
import type { Content } from '@google/genai';
import { injectSummary } from '../summary/inject-summary.js';
import type { LeadingRequest } from '../summary/summary-from-request.js';
import { uncoveredContents } from '../split/coverage.js';
import type { Split } from '../split/choose-split.js';
import type { GuardRequestInput } from './contract.js';
import { pinsFirst, type Observed } from './observe.js';

/** The contents sent when nothing is compacted; `undefined` when they are the request's own. */
export function contentsAsIs(input: GuardRequestInput, observed: Observed): Content[] | undefined {
  const { located, mask, view } = observed;
  const { summary, coverage } = located;
  const withPins = pinsFirst(input.pinned);
  const masked = mask.maskedUpTo > coverage.covered;
  if (summary) return withPins(injectSummary(summary, uncoveredContents(view.view, coverage), observed.viewOptions));
  return input.pinned || masked ? withPins(view.view) : undefined;
}

/**
 * The contents before `split`'s watermark as the agent's request carries them (pins, the stored
 * summary and the message it keeps first), with their heuristic tokens and the fixed part's;
 * `undefined` when the summarizer is not the agent's own model.
 */
export function leadingRequest(input: GuardRequestInput, observed: Observed, split: Split): LeadingRequest | undefined {
  if (input.summarizerReadsRequest !== true) return undefined;
  const sent = contentsAsIs(input, observed) ?? input.contents;
  const { view, viewTokens } = observed.view;
  const from = observed.located.coverage.covered;
  const to = Math.max(from, split.coverage.covered);
  // The sent contents end with view[from...]: what comes before it is pins, summary and kept message.
  const head = sent.length - (view.length - from);
  let tail = 0;
  for (let i = to; i < viewTokens.length; i++) tail += viewTokens[i] ?? 0;
  return {
    contents: sent.slice(0, head + (to - from)),
    tokens: Math.max(0, observed.measure.estimate - tail),
    factor: effectiveRatio(observed.measure),
    window: input.summarizerWindow,
  };
}

/**
 * Calibrated over heuristic tokens of the request as measured: the leading part was sent before and is
 * measured at the same rate. Not `factor`, which is at least 1: where the provider counts below the
 * estimate (code, JSON) the calibrated request is below its estimate, and a leading request measured at
 * 1 would seem not to fit the summarizer's window, sending the summary to the uncached prompt.
 */
function effectiveRatio(measure: Observed['measure']): number {
  return measure.estimate > 0 && measure.calibrated > 0 ? measure.calibrated / measure.estimate : measure.factor;
}
