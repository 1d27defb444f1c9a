/**
 * Background compaction, the summary itself: made from a preparation request
 * (preparation/plan.ts) by the same step as a compaction's (summary/summarize-covered.ts), so a summarizer failure gives the same fallback,
 * once. And the check that a prepared summary may still be applied: it was
 * built on the summary that applies now, and the contents it covers are the
 * same ones (its watermark is found in the live contents by fingerprint).
 */
import type { SummarizeFn } from '../summary/summarizer.js';
import type { Tokenizer } from '../estimate/tokenizer.js';
import type { SummaryRecord } from '../summary/stored-summary.js';
import type { NewSummary } from '../summary/new-summary.js';
import { summaryIdentity, type PreparationClaim } from './prepared-record.js';
import { locateSummary, type FingerprintAt, type SummaryPosition } from '../state/watermark.js';
import type { PreparationRequest } from './plan.js';
import { summarizeCovered } from '../summary/summarize-covered.js';

/** A prepared summary as the decision is handed it: what it was built on, and its result when it settles. */
export interface PreparedHandle {
  /** `summaryIdentity` of the summary it extends (undefined: the first of the session). */
  readonly previous: string | undefined;
  readonly watermark: SummaryPosition;
  /** Keys of the application's answers its summary read; `undefined` in a claim written before they were kept. */
  readonly answers?: readonly string[] | undefined;
  /** Settles with the summary (undefined when it could not be made) and the milliseconds this call waited. */
  take(): Promise<{ readonly prepared: NewSummary | undefined; readonly waitedMs: number }>;
}

/** Summarizes a preparation request; never rejects (the summarizer's failures become the fallback). */
export async function prepareSummary(
  request: PreparationRequest,
  tokenizer: Tokenizer,
  summarize: SummarizeFn | undefined,
): Promise<NewSummary> {
  return summarizeCovered({ ...request, tokenizer, summarize });
}

/** The claim of a preparation request, for state: any replica can check and apply what it settles with. */
export function claimOf(id: string, request: PreparationRequest): PreparationClaim {
  return {
    id,
    startedAt: request.now,
    previous: summaryIdentity(request.previous),
    watermark: request.watermark,
    ...(request.answers && { answers: request.answers }),
  };
}

/** Why a prepared summary is not applied when it is the stored summary already (no waste, nothing to report). */
export const PREPARED_APPLIED = 'it is the stored summary already';

export type PreparedCheck =
  | { readonly valid: true; readonly covered: number; readonly keptAt?: number | undefined }
  | { readonly valid: false; readonly reason: string };

/** Whether `handle` may be applied to the live contents, whose applying summary is `current`. */
export function checkPrepared(
  handle: PreparedHandle,
  current: SummaryRecord | undefined,
  fingerprintAt: FingerprintAt,
  length: number,
): PreparedCheck {
  if (handle.previous !== summaryIdentity(current)) {
    // The stored one may be this very summary, applied by another call: its entry goes, nothing was wasted.
    const applied = current?.covered === handle.watermark.covered && current.anchor === handle.watermark.anchor;
    return { valid: false, reason: applied ? PREPARED_APPLIED : 'the summary it extends is no longer the stored one' };
  }
  const match = locateSummary(fingerprintAt, length, handle.watermark);
  if (match.kind === 'missing') return { valid: false, reason: match.reason };
  return { valid: true, covered: match.covered, keptAt: match.keptAt };
}
