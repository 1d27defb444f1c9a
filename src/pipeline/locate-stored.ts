/**
 * Step 1 of the decision: where the stored summary and the stored mask end in
 * the live contents. A watermark that no longer matches the history is
 * dropped (a summary with its reason; a mask by clearing it), never guessed.
 */
import type { SummaryCoverage } from '../split/coverage.js';
import type { SummaryRecord } from '../summary/stored-summary.js';
import type { MaskRecord } from '../masking/mask-record.js';
import { locateSummary, locateWatermark, type FingerprintAt } from '../state/watermark.js';

export interface LocatedSummary {
  /** The stored summary when it still applies. */
  readonly summary: SummaryRecord | undefined;
  readonly coverage: SummaryCoverage;
  /** Why a stored summary was not applied. */
  readonly summaryDiscarded?: string | undefined;
}

export function locateStoredSummary(
  fingerprintAt: FingerprintAt,
  length: number,
  stored: SummaryRecord | undefined,
): LocatedSummary {
  if (!stored) return { summary: undefined, coverage: { covered: 0 } };
  const match = locateSummary(fingerprintAt, length, stored);
  if (match.kind === 'missing') return { summary: undefined, coverage: { covered: 0 }, summaryDiscarded: match.reason };
  return { summary: stored, coverage: match };
}

export interface LocatedMask {
  /** Contents before this index are sent masked (0: none). */
  readonly maskedUpTo: number;
  /** Contents before this index are not masked by the stored mask (its start; 0 when it has none). */
  readonly maskedFrom: number;
  /** `null` clears a stored mask that no longer matches the history. */
  readonly maskUpdate: null | undefined;
}

export function locateStoredMask(
  fingerprintAt: FingerprintAt,
  length: number,
  stored: MaskRecord | undefined,
  maskKeepRecent: number,
): LocatedMask {
  if (!stored || maskKeepRecent <= 0) return { maskedUpTo: 0, maskedFrom: 0, maskUpdate: undefined };
  const match = locateWatermark(fingerprintAt, length, stored.upTo, stored.anchor, stored.contents);
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
