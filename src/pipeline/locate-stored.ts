/**
 * Step 1 of the decision: where the stored summary and the stored mask end in
 * the live contents. A watermark that no longer matches the history is
 * dropped (a summary with its reason; a mask by clearing it), never guessed;
 * except in ADK's view of a late answer (the history up to the function call,
 * then the response: adk/runtime/late-response-view.ts). From the next request
 * on, ADK places that response right after its call, inside what a summary or
 * mask made before it covers: a record that reaches past the call is cut at
 * the call there, applied so and stored so, and the answer and everything after
 * the call are sent whole until a later compaction covers them (the sixteenth
 * outside trial: the response was sent without its call, or stripped unseen).
 */
import type { Content } from '@google/genai';
import { hasFunctionCall, hasFunctionResponse } from '../content/content-shape.js';
import type { SummaryCoverage } from '../split/coverage.js';
import { unseenAnswerCall, unseenAnswersAt, type ApplicationAnswer } from './unseen-answer.js';
import type { SummaryRecord } from '../summary/stored-summary.js';
import type { MaskRecord } from '../masking/mask-record.js';
import { coveredContentsAt } from '../state/covered-contents.js';
import { anchorAt, locateSummary, locateWatermark, type FingerprintAt } from '../state/watermark.js';

export interface LocatedSummary {
  /** The stored summary when it still applies. */
  readonly summary: SummaryRecord | undefined;
  readonly coverage: SummaryCoverage;
  /** Why a stored summary was not applied, and is cleared. */
  readonly summaryDiscarded?: string | undefined;
  /** In ADK's view of a late answer: how the stored summary was applied to it (cut at the function call, or not at all). */
  readonly summaryHeld?: string | undefined;
  /** In ADK's view of a late answer: the stored summary cut at the function call, to store in its place. */
  readonly cutAtCall?: SummaryRecord | undefined;
}

/** The request's contents and the answers the application sent, to find one a stored summary never read. */
interface AnswersInView {
  readonly contents: readonly Content[];
  readonly answers: readonly ApplicationAnswer[];
}

export function locateStoredSummary(
  fingerprintAt: FingerprintAt,
  length: number,
  stored: SummaryRecord | undefined,
  partialView = false,
  inView?: AnswersInView,
): LocatedSummary {
  if (!stored) return { summary: undefined, coverage: { covered: 0 } };
  const match = locateSummary(fingerprintAt, length, stored);
  if (!partialView) {
    if (match.kind !== 'found')
      return (
        (inView && withoutUnseenAnswers(fingerprintAt, length, stored, inView)) ?? {
          summary: undefined,
          coverage: { covered: 0 },
          summaryDiscarded: match.reason,
        }
      );
    return foundInFull(fingerprintAt, length, stored, match, inView);
  }
  // The late view is the history up to the call, then the response: `length - 2` is the call.
  const call = length - 2;
  const pastTheCall = stored.covered > call || (match.kind === 'found' && match.covered > call);
  if (match.kind === 'found' && !pastTheCall) return { summary: stored, coverage: match };
  const reason = match.kind === 'missing' ? match.reason : `its watermark at ${stored.covered} is past the call`;
  const notApplied = { summary: undefined, coverage: { covered: 0 }, summaryHeld: `not applied (${reason})` };
  return (pastTheCall && upToTheCall(fingerprintAt, call, stored)) || notApplied;
}

/**
 * A summary found in the whole history: applied up to the call of an answer it never read that lies inside it or
 * right after it (the answer would go without its call: a reorder can end the covered prefix between them); else
 * short of a call whose response its watermark would cut it from.
 */
function foundInFull(
  fingerprintAt: FingerprintAt,
  length: number,
  stored: SummaryRecord,
  match: SummaryCoverage,
  inView: AnswersInView | undefined,
): LocatedSummary {
  const through = Math.min(length, match.covered + 1);
  const call =
    inView && stored.answers && inView.answers.length > 0
      ? unseenAnswerCall(inView.contents, through, inView.answers, stored.answers)
      : undefined;
  const cut = call === undefined ? undefined : upToUnreadAnswer(fingerprintAt, call, stored);
  if (cut) return cut;
  const contents = inView?.contents;
  const split =
    contents !== undefined &&
    hasFunctionResponse(contents[match.covered]) &&
    hasFunctionCall(contents[match.covered - 1]);
  if (!split) return { summary: stored, coverage: match };
  const coverage = {
    covered: match.covered - 1,
    ...(match.keptAt !== undefined && match.keptAt < match.covered - 1 && { keptAt: match.keptAt }),
  };
  return { summary: stored, coverage };
}

/**
 * A summary not found where ADK placed an answer it never read inside what it covers, right after the answer's
 * call: found in the contents without such answers, it is applied up to that call. Found so, the contents before
 * the watermark are exactly those it covers and the answers (its covered contents are recorded: the answer alone
 * moved the watermark, as far back as it lies). Review 45: not found further back than the last 24 covered contents.
 */
function withoutUnseenAnswers(
  fingerprintAt: FingerprintAt,
  length: number,
  stored: SummaryRecord,
  inView: AnswersInView,
): LocatedSummary | undefined {
  if (!stored.answers || !stored.contents || inView.answers.length === 0) return undefined;
  const unseen = new Set(unseenAnswersAt(inView.contents, length, inView.answers, stored.answers));
  if (unseen.size === 0) return undefined;
  const kept: number[] = [];
  for (let index = 0; index < length; index++) if (!unseen.has(index)) kept.push(index);
  const match = locateSummary((index) => fingerprintAt(kept[index] ?? -1), kept.length, stored);
  if (match.kind !== 'found' || match.covered < 1) return undefined;
  const covered = (kept[match.covered - 1] ?? -1) + 1;
  const call = unseenAnswerCall(inView.contents, covered, inView.answers, stored.answers);
  return call === undefined ? undefined : upToUnreadAnswer(fingerprintAt, call, stored);
}

/** The summary cut at the call of an answer it never read (`upToTheCall`), saying so. */
function upToUnreadAnswer(
  fingerprintAt: FingerprintAt,
  call: number,
  stored: SummaryRecord,
): LocatedSummary | undefined {
  const cut = upToTheCall(fingerprintAt, call, stored);
  return cut && { ...cut, summaryHeld: `${cut.summaryHeld ?? ''}: an answer it never read lies inside it` };
}

/**
 * A summary that covers the function call of a late answer covers everything before it: it is applied up to the
 * call, which is sent with its response (a summary of the whole history left out of the view summarized it afresh
 * from the raw history: review 14), and stored so, since the next request has the response right after the call.
 */
function upToTheCall(fingerprintAt: FingerprintAt, call: number, stored: SummaryRecord): LocatedSummary | undefined {
  if (call < 1) return undefined;
  const { kept } = stored;
  const keptAt = kept && kept.at < call ? kept.at : undefined;
  if (kept && keptAt !== undefined && fingerprintAt(keptAt) !== kept.fingerprint) return undefined;
  const cutAtCall: SummaryRecord = {
    ...stored,
    covered: call,
    anchor: anchorAt(fingerprintAt, call),
    kept: keptAt === undefined ? undefined : kept,
    contents: coveredContentsAt(fingerprintAt, call),
    lateAnswer: true,
  };
  return {
    summary: cutAtCall,
    coverage: keptAt === undefined ? { covered: call } : { covered: call, keptAt },
    summaryHeld: `cut at the function call at content ${call} (its watermark was at ${stored.covered})`,
    cutAtCall,
  };
}

export interface LocatedMask {
  /** Contents before this index are sent masked (0: none). */
  readonly maskedUpTo: number;
  /** Contents before this index are not masked by the stored mask (its start; 0 when it has none). */
  readonly maskedFrom: number;
  /** `null` clears a stored mask that no longer matches the history (not in a partial view of it). */
  readonly maskUpdate: null | undefined;
  /** In ADK's view of a late answer: the stored mask cut at the function call (`null`: nothing left to mask), to store. */
  readonly cutAtCall?: MaskRecord | null | undefined;
}

const NO_MASK: LocatedMask = { maskedUpTo: 0, maskedFrom: 0, maskUpdate: undefined };

export function locateStoredMask(
  fingerprintAt: FingerprintAt,
  length: number,
  stored: MaskRecord | undefined,
  maskKeepRecent: number,
  partialView = false,
): LocatedMask {
  if (!stored || maskKeepRecent <= 0) return NO_MASK;
  const match = locateWatermark(fingerprintAt, length, stored.upTo, stored.anchor, stored.contents);
  if (partialView) {
    const call = length - 2;
    if (stored.upTo > call || (match.kind !== 'missing' && match.covered > call))
      return maskUpToTheCall(fingerprintAt, call, stored);
    if (match.kind === 'missing') return NO_MASK;
  }
  if (match.kind === 'missing') return { maskedUpTo: 0, maskedFrom: 0, maskUpdate: null };
  // A reorder can find the watermark earlier than stored: the start never passes it. A watermark found
  // earlier because contents before it are gone takes the start back with it (else the masked contents
  // that moved before the start would be sent unmasked); one found later keeps it (a repeat of masking, no loss).
  const start = stored.start ?? 0;
  const shifted = match.kind === 'moved' ? start + Math.min(0, match.covered - stored.upTo) : start;
  return {
    maskedUpTo: match.covered,
    maskedFrom: Math.max(0, Math.min(shifted, match.covered)),
    maskUpdate: undefined,
  };
}

/** A mask reaching past a late answer's function call, cut there as the summary is (`upToTheCall`). */
function maskUpToTheCall(fingerprintAt: FingerprintAt, call: number, stored: MaskRecord): LocatedMask {
  const start = stored.start ?? 0;
  if (call < 1 || start >= call) return { ...NO_MASK, cutAtCall: null };
  const cutAtCall: MaskRecord = {
    ...stored,
    upTo: call,
    anchor: anchorAt(fingerprintAt, call),
    contents: coveredContentsAt(fingerprintAt, call),
  };
  return { maskedUpTo: call, maskedFrom: start, maskUpdate: undefined, cutAtCall };
}
