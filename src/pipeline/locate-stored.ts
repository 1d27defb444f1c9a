/**
 * Step 1 of the decision: where the stored summary and the stored mask end in
 * the live contents. A watermark that no longer matches the history is
 * dropped (a summary with its reason; a mask by clearing it), never guessed;
 * except in ADK's view of a late long-running answer (the history up to the
 * call, adk/runtime/late-response-view.ts), where records made for the whole
 * history are not applied and stay stored for the next request.
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
  /** Why a stored summary was not applied to this partial view of the history, and stays stored. */
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
  const notApplied = partialView ? { summaryHeld: match.reason } : { summaryDiscarded: match.reason };
  return { summary: undefined, coverage: { covered: 0 }, ...notApplied };
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
