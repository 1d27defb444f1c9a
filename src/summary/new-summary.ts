/**
 * A summary just made: the one result carried from the summarizer to state, whether it was
 * made in the call or prepared in the background (and stored for other replicas).
 */
import type { SummaryOutcome } from './summarizer.js';
import type { SummaryRecord } from './stored-summary.js';

export interface NewSummary {
  /** The record to store; its text is the summarizer's, or the mechanical fallback's when it failed. */
  readonly record: SummaryRecord;
  /** Durable facts the bound left out. */
  readonly droppedFacts: readonly string[];
  /** What the summarizer said (its text, or why the fallback was used). */
  readonly outcome: SummaryOutcome;
  /** Contents the summarizer's prompt left out to respect its bound. */
  readonly droppedContents: number;
}
