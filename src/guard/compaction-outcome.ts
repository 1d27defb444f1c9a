/**
 * The outcome of one compaction, assembled from the steps that made it: the
 * split, the summarizer's verdict, the new summary and the request's size
 * before and after.
 */
import type { SummarizerFailureKind, SummaryOutcome } from '../compaction/summarizer.js';
import type { CompactionReason } from '../records/compaction-record.js';
import type { NewSummary } from './build-summary-record.js';
import type { Split } from './choose-split.js';
import type { Summarized } from './summarize-covered.js';

/** What the summarizer's verdict says about the summary, as the outcome reports it. */
/** What one compaction did; becomes the audit record and the `onCompaction` payload. */
export interface CompactionOutcome {
  /** What triggered it: the threshold, a rejected request, the sliding window's schedule or its token trigger. */
  readonly reason: CompactionReason;
  /** Raw content indexes summarized by this compaction: [from, to). */
  readonly coveredFrom: number;
  readonly coveredTo: number;
  /** The user's message inside [from, to) that stays verbatim, when the compaction was mid-turn. */
  readonly keptAt?: number | undefined;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly fallback: boolean;
  /** Why the fallback was used, safe to store. */
  readonly fallbackKind?: SummarizerFailureKind | undefined;
  /** The failure's details (a provider's error text can quote the conversation): not stored unless asked for. */
  readonly fallbackReason?: string | undefined;
  readonly summaryTruncated: boolean;
  readonly summarizerPromptTokens?: number | undefined;
  readonly summarizerOutputTokens?: number | undefined;
  readonly droppedFromSummarizerInput: number;
  readonly summaryChars: number;
  /** Durable facts carried by the new summary, and those dropped to respect the bound. */
  readonly facts: number;
  readonly droppedFacts: readonly string[];
  /** True when the summary was prepared in the background (background compaction). */
  readonly prepared: boolean;
  /** How long this call waited for the prepared summary; undefined when it summarized itself. */
  readonly waitedMs?: number | undefined;
}

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
  /** Set when a summary prepared in the background was applied. */
  readonly prepared?: { readonly waitedMs: number | undefined } | undefined;
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
    prepared: steps.prepared !== undefined,
    waitedMs: steps.prepared?.waitedMs,
  };
}
