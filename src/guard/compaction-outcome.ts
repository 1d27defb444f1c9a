/**
 * The outcome of one compaction, assembled from the steps that made it: the
 * split, the summarizer's verdict, the new summary and the request's size
 * before and after.
 */
import type { SummaryOutcome } from '../compaction/summarizer.js';
import type { CompactionReason } from '../records/compaction-record.js';
import type { NewSummary } from './build-summary-record.js';
import type { Split } from './choose-split.js';
import type { CompactionOutcome } from './guard-request.js';
import type { Summarized } from './summarize-covered.js';

/** What the summarizer's verdict says about the summary, as the outcome reports it. */
export type SummarizerReport = Pick<
  CompactionOutcome,
  | 'fallback'
  | 'fallbackKind'
  | 'fallbackReason'
  | 'summaryTruncated'
  | 'summarizerPromptTokens'
  | 'summarizerOutputTokens'
>;

export function summarizerReport(outcome: SummaryOutcome): SummarizerReport {
  if (outcome.ok) {
    const { truncated, promptTokens, outputTokens } = outcome;
    return {
      fallback: false,
      fallbackKind: undefined,
      fallbackReason: undefined,
      summaryTruncated: truncated,
      summarizerPromptTokens: promptTokens,
      summarizerOutputTokens: outputTokens,
    };
  }
  const { kind, reason } = outcome;
  return {
    fallback: true,
    fallbackKind: kind,
    fallbackReason: reason,
    summaryTruncated: false,
    summarizerPromptTokens: undefined,
    summarizerOutputTokens: undefined,
  };
}

export interface CompactionSteps {
  readonly reason: CompactionReason;
  /** The watermark before this compaction. */
  readonly coveredFrom: number;
  readonly split: Split;
  readonly summarized: Summarized;
  readonly summary: NewSummary;
  /** Calibrated tokens of the request before and after (as sent). */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
}

export function buildCompactionOutcome(steps: CompactionSteps): CompactionOutcome {
  const { split, summarized, summary } = steps;
  const report = summarizerReport(summarized.outcome);
  return {
    reason: steps.reason,
    coveredFrom: steps.coveredFrom,
    coveredTo: split.coverage.covered,
    keptAt: split.coverage.keptAt,
    tokensBefore: steps.tokensBefore,
    tokensAfter: steps.tokensAfter,
    ...report,
    droppedFromSummarizerInput: summarized.droppedContents,
    summaryChars: summarized.text.length,
    facts: summary.record.facts?.length ?? 0,
    droppedFacts: summary.droppedFacts,
  };
}
