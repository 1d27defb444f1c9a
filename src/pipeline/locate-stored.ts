/**
 * Step 1 of the decision: where the stored summary and the stored mask end in
 * the live contents. A watermark that no longer matches the history is
 * dropped (a summary with its reason; a mask by clearing it), never guessed;
 * except in ADK's view of a late long-running answer (the history up to the
 * call, adk/runtime/late-response-view.ts), where a summary made for the whole
 * history is applied up to the call where it covers it, and both records stay
 * stored for the next request.
 */
import type { SummaryCoverage } from '../split/coverage.js';
import type { SummaryRecord } from '../summary/stored-summary.js';
import type { MaskRecord } from '../masking/mask-record.js';
import { locateSummary, locateWatermark, type FingerprintAt } from '../state/watermark.js';

export interface LocatedSummary {
  /** The stored summary when it still applies. */
  readonly summary: SummaryRecord | undefined;
  readonly coverage: SummaryCoverage;
  /** Why a stored summary was not applied, and is cleared. */
  readonly summaryDiscarded?: string | undefined;
  /**
   * In ADK's view of a late long-running answer: how the stored summary was applied to it (up to the function
   * call, or not at all) while it stays stored as it is.
   */
  readonly summaryHeld?: string | undefined;
}

export function locateStoredSummary(
  fingerprintAt: FingerprintAt,
  length: number,
  stored: SummaryRecord | undefined,
  partialView = false,
): LocatedSummary {
  if (!stored) return { summary: undefined, coverage: { covered: 0 } };
  const match = locateSummary(fingerprintAt, length, stored);
  if (match.kind === 'found') return { summary: stored, coverage: match };
  if (!partialView) return { summary: undefined, coverage: { covered: 0 }, summaryDiscarded: match.reason };
  const notApplied = { summary: undefined, coverage: { covered: 0 }, summaryHeld: `not applied (${match.reason})` };
  return upToTheCall(fingerprintAt, length, stored) ?? notApplied;
}

/**
 * ADK's view of a late answer is the history up to the function call, then the response: a summary whose watermark
 * is past the call covers everything before it (review 14: not applied there, the view was summarized afresh from the
 * raw history, without the stored summary's facts). It is applied up to the call, which is sent with its response.
 */
function upToTheCall(fingerprintAt: FingerprintAt, length: number, stored: SummaryRecord): LocatedSummary | undefined {
  const call = length - 2;
  if (call < 1 || stored.covered <= call) return undefined;
  const { kept } = stored;
  const keptAt = kept && kept.at < call ? kept.at : undefined;
  if (kept && keptAt !== undefined && fingerprintAt(keptAt) !== kept.fingerprint) return undefined;
  return {
    summary: stored,
    coverage: keptAt === undefined ? { covered: call } : { covered: call, keptAt },
    summaryHeld: `applied up to the function call at content ${call} (its watermark at ${stored.covered} is past this request's ${length} contents)`,
  };
}

export interface LocatedMask {
  /** Contents before this index are sent masked (0: none). */
  readonly maskedUpTo: number;
  /** Contents before this index are not masked by the stored mask (its start; 0 when it has none). */
  readonly maskedFrom: number;
  /** `null` clears a stored mask that no longer matches the history (not in a partial view of it). */
  readonly maskUpdate: null | undefined;
}

export function locateStoredMask(
  fingerprintAt: FingerprintAt,
  length: number,
  stored: MaskRecord | undefined,
  maskKeepRecent: number,
  partialView = false,
): LocatedMask {
  if (!stored || maskKeepRecent <= 0) return { maskedUpTo: 0, maskedFrom: 0, maskUpdate: undefined };
  const match = locateWatermark(fingerprintAt, length, stored.upTo, stored.anchor, stored.contents);
  if (match.kind === 'missing') return { maskedUpTo: 0, maskedFrom: 0, maskUpdate: partialView ? undefined : null };
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
