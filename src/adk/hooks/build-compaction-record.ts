/**
 * The audit record of a compaction: the outcome's own figures, plus what only the shell knows
 * (which session, agent and call, the stored events covered, the summarizer's name, timing).
 */
import type { CompactionOutcome } from '../../pipeline/guard-request.js';
import type { CompactionRecord, CoveredEvents } from '../../records/compaction-record.js';

/** What the ADK shell adds to an outcome to make its record. */
export interface CompactionShellFacts {
  readonly agentName: string;
  readonly sessionId: string;
  readonly invocationId: string;
  readonly strategy: string;
  readonly coveredEvents: CoveredEvents;
  readonly summarizerName: string | undefined;
  readonly createdAt: number;
  readonly durationMs: number;
  /** Store the summarizer's error text (`debugSummarizerErrorText`). */
  readonly withDetail: boolean;
  /** The summarizer's call at its model's price, when known (cost/bill-summary.ts). */
  readonly summarizerCostUsd?: number | undefined;
}

export function buildCompactionRecord(outcome: CompactionOutcome, shell: CompactionShellFacts): CompactionRecord {
  const { keptAt: _keptAt, fallbackDetail, waitedMs, ...figures } = outcome;
  const { agentName, createdAt } = shell;
  return {
    version: 1,
    id: `${shell.invocationId}:${agentName}:${createdAt}`,
    agentName,
    sessionId: shell.sessionId,
    invocationId: shell.invocationId,
    strategy: shell.strategy,
    ...figures,
    coveredEvents: shell.coveredEvents,
    summarizer: outcome.fallback ? 'fallback' : (shell.summarizerName ?? 'unknown'),
    ...(shell.summarizerCostUsd !== undefined ? { summarizerCostUsd: shell.summarizerCostUsd } : {}),
    ...(shell.withDetail && fallbackDetail ? { fallbackDetail } : {}),
    durationMs: shell.durationMs,
    // A call that summarized itself waited for the whole compaction.
    waitedMs: waitedMs ?? shell.durationMs,
    createdAt,
  };
}
