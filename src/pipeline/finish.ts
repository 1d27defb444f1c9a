/**
 * Steps 9-10 of the decision: what is sent (a summary that came out larger is discarded, then
 * shrinking, then the over-limit warning), the compaction's outcome, and the usage record's
 * counters after the call (a futile attempt remembered).
 */
import type { Content } from '@google/genai';
import type { Budget } from '../budget/compute-budget.js';
import type { CompactionReason } from '../budget/compaction-reason.js';
import { contentFramingTokens } from '../estimate/estimate-content.js';
import type { RequestView } from '../masking/request-view.js';
import type { MaskStep } from '../masking/mask-for-room.js';
import type { UsageRecord } from '../usage/stored-usage.js';
import { calibrateReduced } from '../estimate/reduced-calibration.js';
import type { RequestMeasure } from './measure-request.js';
import { buildCompactionOutcome, discardedReport } from './compaction-outcome.js';
import type { Compacted } from './compact.js';
import type { Decision, GuardRequestInput } from './contract.js';
import {
  composeRequest,
  messageFactor,
  overLimitMessage,
  shrinkFlags,
  shrinkToFit,
  type Composed,
  type MessageCut,
  type Shrunk,
} from './fit-request.js';
import { summaryFigures, usageAfter } from './usage-after.js';
import { crowdedRoomNote } from '../budget/crowded-room.js';
import { pinsFirst, type Observed } from './observe.js';

/** Steps 9-10: what is sent, what it cost, and the records (`reason` undefined: a masking for cost). */
export function finish(
  input: GuardRequestInput,
  observed: Observed,
  reason: CompactionReason | undefined,
  compacted: Compacted,
): Decision {
  const { usage } = input;
  const { fixedTokens, measure, located } = observed;
  const { made, masking } = compacted;
  const { composed, fitted } = composeAndFit(input, observed, reason, compacted);
  const measured = { ...compacted, observedView: observed.view };
  const { sentCalibrated, reducedCalibrated } = sentAndReduced(measure, measured, composed, fitted);
  const reduced = { viewEstimate: composed.estimate, reducedCalibrated };
  const { overLimit, sentWhole, messageCut } = limitNotes(observed, fitted, sentCalibrated, usage);
  const compaction =
    made && composed.compacted && reason
      ? buildCompactionOutcome({
          reason,
          coveredFrom: located.coverage.covered,
          ...made,
          tokensBefore: measure.calibrated,
          tokensAfter: sentCalibrated,
        })
      : undefined;
  // The masking's own effect is reported when a summary followed it; otherwise it is what was sent.
  const maskingAfter = (step: MaskStep): number =>
    compaction ? maskedCalibrated(measure, step, observed.view) : sentCalibrated;
  const overLimitCause = overLimit ? `${measure.budget.window}:${fixedTokens}` : usage.overLimitCause;
  const contents = pinsFirst(input.pinned)(fitted.sent);
  return {
    contents,
    newSummary: compaction ? made?.summary.record : undefined,
    summaryDiscarded: located.summaryDiscarded,
    mask: masking?.record ?? observed.mask.maskUpdate,
    masking: masking && {
      upTo: masking.upTo,
      tokensBefore: measure.calibrated,
      tokensAfter: maskingAfter(masking),
      cause: reason ? 'room' : 'cost',
    },
    usage: usageAfter(input, observed, reason, reduced, {
      compacted: compaction !== undefined,
      masked: masking !== undefined,
      discarded: composed.discarded,
      sentEstimate: fitted.estimate,
      sentFraming: sentFraming(input, contents, compacted.view),
      sentCalibrated,
      overLimit: overLimit !== undefined,
      overLimitCause,
      messageCutFrom: fitted.messageCut?.before,
      ...summaryFigures(input, made, compaction !== undefined),
    }),
    compaction,
    budget: measure.budget,
    estimate: fitted.estimate,
    calibrated: sentCalibrated,
    overLimit,
    overLimitNewCause: overLimit !== undefined && overLimitCause !== usage.overLimitCause,
    sentWhole,
    messageCut,
    ...shrinkFlags(fitted),
    ...discardedReport(reason, composed.discarded ? composed.discardedFigures : undefined, made),
    ...(compaction && crowdedRoom(observed, usage)),
  };
}

/** On a compaction made on a calibrated estimate: whether the fixed part leaves a turn room under the threshold. */
function crowdedRoom({ measure, fixedTokens }: Observed, usage: UsageRecord): Pick<Decision, 'crowdedRoom'> {
  if (!measure.isCalibrated) return {};
  const { threshold, window } = measure.budget;
  const fixed = Math.ceil(fixedTokens * measure.factor);
  const note = crowdedRoomNote({ fixed, threshold, window, turnTokens: usage.averageTurnTokens });
  return note ? { crowdedRoom: note } : {};
}

/**
 * The warning of a request sent over the hard limit; or, for a user's message sent whole on the estimate
 * alone before any real count (fit-request.ts `messageFactor`), the info line that says so instead.
 */
function limitNotes(
  observed: Observed,
  fitted: Shrunk,
  sentCalibrated: number,
  usage: Pick<UsageRecord, 'agentAddedTokens' | 'messageCutFrom'>,
): Pick<Decision, 'overLimit' | 'sentWhole' | 'messageCut'> {
  const { budget, factor } = observed.measure;
  // Held on the estimate, the message was cut to the hard limit by the estimate itself (fit-request.ts `messageFactor`).
  const note = fitted.messageCut && messageCutNote(fitted.messageCut, budget, fitted.heldOnEstimate ? 1 : factor);
  const said = fitted.messageCut?.before === usage.messageCutFrom; // cut again (a tool loop, a retry): said once
  const over = overLimitMessage(sentCalibrated, budget, observed.fixedTokens, factor, usage.agentAddedTokens);
  if (!fitted.heldOnEstimate) return { overLimit: over, messageCut: said ? undefined : note };
  const atDefault = `~${sentCalibrated} at the correction in force (x${rounded(factor)}) until the provider counts this agent's request`;
  if (note)
    return {
      messageCut: said
        ? undefined
        : `${note}; held to the hard limit by the estimate (${atDefault}), a rejection is retried inside the ` +
          `call with the message cut deeper`,
    };
  return {
    sentWhole:
      `the user's message is sent whole: the request is ~${fitted.estimate} tokens by the estimate, under the hard ` +
      `limit of ${budget.hardLimit} (window ${budget.window}), ${atDefault}; a rejection is retried inside the call ` +
      `with the message cut`,
  };
}

/**
 * The info line of a user's message cut to fit: how much of it went, calibrated as the hard limit is (the forty-ninth
 * outside trial read "~8714 tokens does not fit under 15200" beside a message the model counted at 16,250).
 */
function messageCutNote(cut: MessageCut, budget: Budget, factor: number): string {
  const calibrated = (tokens: number): number => Math.ceil(tokens * factor);
  const measured = factor === 1 ? 'tokens by the estimate' : `tokens at the correction in force, x${rounded(factor)}`;
  return (
    `the turn's user content (~${calibrated(cut.before)} tokens: the user's message, or what a tool added as one, ` +
    `such as an MCP resource) does not fit beside the rest under the hard limit of ${budget.hardLimit} (window ` +
    `${budget.window}; ${measured}): sent cut head and tail to ~${calibrated(cut.after)} tokens, with a marker ` +
    `where its middle was; the session keeps it whole`
  );
}

/** A correction as a log line shows it. */
const rounded = (factor: number): number => Math.round(factor * 100) / 100;

/**
 * The estimator's framing of a reduced request (what is sent as measured has `measure.framing`). The sent contents
 * mostly end with the view's own objects, whose framing the view carries: those are summed, only the others
 * (summary, pins, shrunk contents) walked; walking all of them was O(history) a call.
 */
function sentFraming(input: GuardRequestInput, contents: readonly Content[], view: RequestView): number {
  const framing = view.viewFraming;
  let sent = contents.length;
  let total = 0;
  if (framing && framing.length === view.view.length) {
    for (let at = view.view.length - 1; sent > 0 && at >= 0 && contents[sent - 1] === view.view[at]; at--, sent--)
      total += framing[at] ?? 0;
  }
  for (let i = 0; i < sent; i++) total += contentFramingTokens(contents[i] as Content);
  return (input.fixedFramingTokens ?? 0) + total;
}

/**
 * Heuristic tokens of the placeholders a masking put in this call: new text the provider has not counted. A
 * masking that extended the observed view differs from it only in the range it masked further (`extended`).
 */
function newPlaceholderTokens(observed: RequestView, masking: MaskStep): number {
  const extended = masking.extended?.of === observed;
  const from = extended ? (masking.extended?.from ?? 0) : 0;
  const to = extended ? Math.min(masking.upTo, masking.view.length) : masking.view.length;
  let added = 0;
  for (let i = from; i < to; i++) if (masking.view[i] !== observed.view[i]) added += masking.viewTokens[i] ?? 0;
  return added;
}

/** A masking's request in the measure of the request before it: the new placeholders at the full correction. */
function maskedCalibrated(measure: RequestMeasure, masking: MaskStep, observed: RequestView): number {
  const added = newPlaceholderTokens(observed, masking);
  return calibrateReduced({ measured: measure, estimate: masking.estimate, added, factor: measure.factor });
}

/**
 * Calibrated tokens of what is sent. A kept summary, or a masking alone, is measured as the request
 * before it was, so its record never reads larger than not reducing (estimate/reduced-calibration.ts):
 * what stays at the rate the request was measured at, the new summary or placeholders at the full
 * correction. The request sent as measured (a summary discarded, nothing masked or cut) keeps its own figure.
 */
function calibratedSent(
  measure: RequestMeasure,
  compacted: Compacted & { readonly observedView: RequestView },
  composed: Composed,
  fitted: Shrunk,
): number {
  const { masking } = compacted;
  if (composed.compacted) {
    const added = composed.sentTokens[composed.summaryAt ?? 0] ?? 0;
    return calibrateReduced({ measured: measure, estimate: fitted.estimate, added, factor: measure.factor });
  }
  if (masking && !fitted.shrunk && fitted.estimate === masking.estimate)
    return maskedCalibrated(measure, masking, compacted.observedView);
  if (!masking && !fitted.shrunk && fitted.estimate === measure.estimate) return measure.calibrated;
  return Math.ceil(fitted.estimate * measure.factor);
}

/**
 * Calibrated tokens of what is sent, and of the request as reduced before any shrinking: a reduction
 * that reached its target only by shrinking (a kept message over the window) did not help, so it is
 * remembered as futile on that figure and the next step is not summarized again for it.
 */
function sentAndReduced(
  measure: RequestMeasure,
  measured: Compacted & { readonly observedView: RequestView },
  composed: Composed,
  fitted: Shrunk,
): { sentCalibrated: number; reducedCalibrated: number } {
  const sentCalibrated = calibratedSent(measure, measured, composed, fitted);
  if (!fitted.shrunk) return { sentCalibrated, reducedCalibrated: sentCalibrated };
  const unshrunk = { sent: composed.sent, estimate: composed.estimate, shrunk: false };
  return { sentCalibrated, reducedCalibrated: calibratedSent(measure, measured, composed, unshrunk) };
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
    keepEqual: reason === 'schedule',
    measured: measure,
    factor,
    fixedTokens,
    tokenizer,
    viewOptions,
  });
  const fitted = shrinkToFit({
    sent: composed.sent,
    sentTokens: composed.sentTokens,
    estimate: composed.estimate,
    summaryAt: composed.summaryAt,
    fixedTokens,
    factor,
    messageFactor: messageFactor(input.usage, measure.factor, input.firstMessageOnEstimate === true),
    budget,
    tokenizer,
  });
  return { composed, fitted };
}
