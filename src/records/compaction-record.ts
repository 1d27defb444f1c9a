/**
 * The audit record of one compaction (seed ADR-009's metadata): what was
 * covered, by content index and by stored event, tokens before and after,
 * the summarizer and whether the fallback was used, and how long it took.
 *
 * It is persisted twice, so it survives a database round trip: on the model
 * response event of the compacting call (`customMetadata.context_guard_compaction`,
 * which ADK stores verbatim) and as the agent's last compaction in state.
 */
import type { SummarizerFailureKind } from '../summary/summarizer.js';
import { isPlainObject } from '../config/plain-object.js';
import type { CompactionReason } from '../budget/compaction-reason.js';
import { decodeDroppedFacts } from '../summary/dropped-facts.js';

export const COMPACTION_METADATA_KEY = 'context_guard_compaction';

/** The stored events a summary replaced, as a compaction record names them. */
export interface CoveredEvents {
  /** Stored events whose contents the summary replaced, first and last. */
  readonly firstEventId?: string | undefined;
  readonly lastEventId?: string | undefined;
  readonly firstTimestamp?: number | undefined;
  readonly lastTimestamp?: number | undefined;
  /** Number of stored events matched to the covered contents. */
  readonly count: number;
}

/**
 * A compaction's own figures, as the core reports them (`CompactionOutcome` extends this);
 * the record is these plus what the ADK shell knows.
 */
export interface CompactionFigures {
  readonly reason: CompactionReason;
  /** Request contents summarized by this compaction: [from, to). */
  readonly coveredContents: { readonly from: number; readonly to: number };
  /** Calibrated tokens of the request before and after. */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** tokensBefore / tokensAfter. */
  readonly compressionRatio: number;
  /**
   * Summarizer calls the summary took, when more than one: what it covers did not fit the summarizer's window at
   * once (docs/design.md, "Summarize"). The summarizer's token figures are those of all of them.
   */
  readonly summarizerCalls?: number | undefined;
  readonly summarizerPromptTokens?: number | undefined;
  /** Of `summarizerPromptTokens`, those the provider served from its cache, when it said. */
  readonly summarizerCachedPromptTokens?: number | undefined;
  readonly summarizerOutputTokens?: number | undefined;
  readonly summaryChars: number;
  readonly fallback: boolean;
  /** Why the fallback summary was used: `'timeout'`, `'failed'`, `'empty'`, `'cut'` (cut short by its output cap) or `'unavailable'` (no summarizer). */
  readonly fallbackReason?: SummarizerFailureKind | undefined;
  /**
   * The summarizer's error text; in a record only with the `debugSummarizerErrorText` option,
   * since a provider's error can quote the conversation and the record is persisted.
   */
  readonly fallbackDetail?: string | undefined;
  readonly summaryTruncated: boolean;
  /**
   * Durable facts the new summary carries, and the facts dropped to keep the list bounded: `droppedFacts` names at
   * most 20 (those the previous summary carried first), `droppedFactCount` counts them all (absent in older records).
   */
  readonly facts: number;
  readonly droppedFacts: readonly string[];
  readonly droppedFactCount?: number | undefined;
  /** Contents left out of the summarizer's input because of its window. */
  readonly droppedFromSummarizerInput: number;
  /** True when the summary was prepared in the background before this call (`prepareTurnsAhead`). */
  readonly prepared: boolean;
}

/** The audit record of one compaction, stored on the event of the call it served (docs/observability.md). */
export interface CompactionRecord extends CompactionFigures {
  readonly version: number;
  readonly id: string;
  readonly agentName: string;
  readonly sessionId: string;
  readonly invocationId: string;
  readonly strategy: string;
  readonly coveredEvents: CoveredEvents;
  readonly summarizer: string;
  /**
   * USD of the summarizer's call at its model's price (cost/bill-summary.ts); absent when the cost is
   * unknown (no usage reported, or no price) or no summarizer was called.
   */
  readonly summarizerCostUsd?: number | undefined;
  /** The plugin's own time, including the summarizer call. */
  readonly durationMs: number;
  /**
   * How long the call waited for its summary, in ms: for a prepared summary, the wait for it to
   * finish (0 when it was ready); otherwise the whole compaction (`durationMs`).
   */
  readonly waitedMs: number;
  /** Epoch milliseconds. */
  readonly createdAt: number;
}

/** A stored record, if it has the fields readers rely on. */
export function decodeCompactionRecord(value: unknown): CompactionRecord | undefined {
  if (!isPlainObject(value)) return undefined;
  const { id, agentName, tokensBefore, tokensAfter, coveredContents, coveredEvents } = value;
  if (typeof id !== 'string' || typeof agentName !== 'string') return undefined;
  if (typeof tokensBefore !== 'number' || typeof tokensAfter !== 'number') return undefined;
  if (!isPlainObject(coveredContents) || !isPlainObject(coveredEvents)) return undefined;
  const record = value as unknown as CompactionRecord;
  // Records written before background compaction have neither field: the call made its own summary.
  return {
    ...record,
    // Records written before dropped facts were capped name them all (review 30: 253 in one record).
    ...decodeDroppedFacts(value['droppedFacts'], value['droppedFactCount']),
    prepared: value['prepared'] === true,
    waitedMs: typeof value['waitedMs'] === 'number' ? value['waitedMs'] : record.durationMs,
  };
}
