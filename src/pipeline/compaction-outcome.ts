/**
 * The outcome of one compaction, assembled from the steps that made it: the
 * split, the summarizer's verdict, the new summary and the request's size
 * before and after.
 */
import type { SummaryOutcome } from '../summary/summarizer.js';
import type { CompactionFigures } from '../records/compaction-record.js';
import type { CompactionReason } from '../budget/compaction-reason.js';
import type { NewSummary } from '../summary/new-summary.js';
import type { Split } from '../split/choose-split.js';

/**
 * What one compaction did: the figures its audit record and the `onCompaction` payload carry,
 * and where the kept user message sits (the core's own business).
 */
export interface CompactionOutcome extends CompactionFigures {
  /** The user's message inside the covered range that stays verbatim, when the compaction was mid-turn. */
  readonly keptAt?: number | undefined;
  /** How long this call waited for the prepared summary; undefined when it summarized itself. */
  readonly waitedMs?: number | undefined;
}

export type SummarizerReport = Pick<
  CompactionOutcome,
  | 'fallback'
  | 'fallbackReason'
  | 'fallbackDetail'
  | 'summaryTruncated'
  | 'summarizerCalls'
  | 'summarizerPromptTokens'
  | 'summarizerCachedPromptTokens'
  | 'summarizerOutputTokens'
>;

export function summarizerReport(outcome: SummaryOutcome): SummarizerReport {
  if (outcome.ok) {
    const { truncated, promptTokens, cachedPromptTokens, outputTokens, calls } = outcome;
    return {
      fallback: false,
      fallbackReason: undefined,
      fallbackDetail: undefined,
      summaryTruncated: truncated,
      summarizerCalls: calls,
      summarizerPromptTokens: promptTokens,
      summarizerCachedPromptTokens: cachedPromptTokens,
      summarizerOutputTokens: outputTokens,
    };
  }
  const { kind, reason } = outcome;
  return {
    fallback: true,
    fallbackReason: kind,
    fallbackDetail: reason,
    summaryTruncated: false,
    // What earlier calls of the same summary billed, when a later one failed (summary/summarize-covered.ts).
    summarizerCalls: outcome.calls,
    summarizerPromptTokens: outcome.promptTokens,
    summarizerCachedPromptTokens: outcome.cachedPromptTokens,
    summarizerOutputTokens: outcome.outputTokens,
  };
}

export interface CompactionSteps {
  readonly reason: CompactionReason;
  /** The watermark before this compaction. */
  readonly coveredFrom: number;
  readonly split: Split;
  readonly summary: NewSummary;
  /** Calibrated tokens of the request before and after (as sent). */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** Set when a summary prepared in the background was applied. */
  readonly prepared?: { readonly waitedMs: number | undefined } | undefined;
}

/** tokensBefore / tokensAfter to two decimals; 0 when nothing is left. */
function compressionRatio(before: number, after: number): number {
  return after > 0 ? Math.round((before / after) * 100) / 100 : 0;
}

export function buildCompactionOutcome(steps: CompactionSteps): CompactionOutcome {
  const { split, summary } = steps;
  const report = summarizerReport(summary.outcome);
  return {
    reason: steps.reason,
    coveredContents: { from: steps.coveredFrom, to: split.coverage.covered },
    keptAt: split.coverage.keptAt,
    tokensBefore: steps.tokensBefore,
    tokensAfter: steps.tokensAfter,
    compressionRatio: compressionRatio(steps.tokensBefore, steps.tokensAfter),
    ...report,
    droppedFromSummarizerInput: summary.droppedContents,
    summaryChars: summary.record.text.length,
    facts: summary.record.facts?.length ?? 0,
    droppedFacts: summary.droppedFacts,
    droppedFactCount: summary.droppedFactCount,
    prepared: steps.prepared !== undefined,
    waitedMs: steps.prepared?.waitedMs,
  };
}

/**
 * A summary this call made and did not keep (it would not make the request smaller): why, in figures only, for the
 * info line; and its summarizer's figures, since the provider billed the call. A summary prepared in the background
 * and taken was billed when it settled.
 */
export function discardedReport(
  reason: CompactionReason | undefined,
  figures: { readonly without: number; readonly with: number } | undefined,
  made:
    | { readonly summary: { readonly outcome: SummaryOutcome }; readonly prepared?: CompactionSteps['prepared'] }
    | undefined,
): { readonly compactionDiscarded?: string; readonly discardedSummarizer?: SummarizerReport } {
  if (!figures) return {};
  const compactionDiscarded =
    `a new summary (${reason ?? 'cost'}) would not make the request smaller (~${figures.without} -> ~${figures.with} ` +
    `tokens); sent without it and counted in discardedCompactions`;
  const billed = made !== undefined && !billedWhenSettled(made.prepared?.waitedMs);
  return { compactionDiscarded, ...(billed && { discardedSummarizer: summarizerReport(made.summary.outcome) }) };
}

/**
 * Whether a summary was prepared in the background and taken as it was (`waitedMs`: how long the call waited for it,
 * `undefined` when it summarized itself): its bill was recorded when it settled, by the replica that made it.
 */
export function billedWhenSettled(waitedMs: number | undefined, prepared = true): boolean {
  return prepared && waitedMs !== undefined;
}
