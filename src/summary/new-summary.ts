/**
 * A summary just made: the one result carried from the summarizer to state, whether it was
 * made in the call or prepared in the background (and stored for other replicas).
 */
import type { SummaryOutcome } from './summarizer.js';
import type { SummaryRecord } from './stored-summary.js';

import type { DroppedFacts } from './dropped-facts.js';

export interface NewSummary extends DroppedFacts {
  /** The record to store; its text is the summarizer's, or the mechanical fallback's when it failed. */
  readonly record: SummaryRecord;
  /** What the summarizer said (its text, or why the fallback was used). */
  readonly outcome: SummaryOutcome;
  /** Contents the summarizer's prompt left out to respect its bound. */
  readonly droppedContents: number;
}
