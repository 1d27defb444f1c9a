/**
 * A summary just made: the one result carried from the summarizer to state, whether it was
 * made in the call or prepared in the background (and stored for other replicas).
 */
import type { SummaryOutcome } from './summarizer.js';
import type { SummaryRecord } from './stored-summary.js';

/** Dropped durable facts a compaction record names; the others are counted. */
export const MAX_LISTED_DROPPED_FACTS = 20;

export interface NewSummary {
  /** The record to store; its text is the summarizer's, or the mechanical fallback's when it failed. */
  readonly record: SummaryRecord;
  /**
   * Durable facts the bound left out: at most `MAX_LISTED_DROPPED_FACTS`, those the previous summary carried first
   * (a first compaction on a large window covers hundreds of turns: the thirty-sixth outside trial's listed 253, 28 KB
   * in state and on the event); `droppedFactCount` says how many there were.
   */
  readonly droppedFacts: readonly string[];
  readonly droppedFactCount: number;
  /** What the summarizer said (its text, or why the fallback was used). */
  readonly outcome: SummaryOutcome;
  /** Contents the summarizer's prompt left out to respect its bound. */
  readonly droppedContents: number;
}
