/**
 * The shell's second half: applies the core's result to ADK's `Context` and `LlmRequest`
 * (the state delta, `request.contents`) and reports a compaction.
 */
import type { Context, LlmRequest } from '@google/adk';
import type { GuardRequestResult } from '../../pipeline/guard-request.js';
import { trackTurn } from '../../usage/track-turns.js';
import { callCountsBetween } from '../../records/call-record.js';
import { encodeRecord } from '../../state/guard-state.js';
import { stateKeysFor } from '../../state/keys.js';
import { recordMasking, recordUtilization } from '../../telemetry/guard-metrics.js';
import type { GuardLogger, ResolvedPolicy } from '../../options.js';
import type { CompactionReporter } from './compaction-reporter.js';
import type { KeyedQueue } from './keyed-queue.js';
import type { PendingCalls } from './pending-calls.js';
import type { PreparedSummaries } from '../runtime/prepared-summaries.js';
import type { ReplicaPrepared } from '../runtime/replica-prepared.js';
import { prepareSummary } from '../../preparation/prepared-summary.js';
import type { Tokenizer } from '../../estimate/tokenizer.js';
import type { ReadRequest } from './read-request.js';
import { LOG_PREFIX } from '../../logging/log-prefix.js';

/** What applying a result uses, built once per guard. */
export interface ResultAppliers {
  readonly logger: GuardLogger;
  readonly queue: KeyedQueue;
  readonly reporter: CompactionReporter;
  /** This call's counts, kept for its response event (records/call-record.ts). */
  readonly calls: PendingCalls;
  readonly prepared: PreparedSummaries;
  readonly replicas: ReplicaPrepared;
  readonly tokenizer: Tokenizer;
}

/** Applies `result` to the agent's state and the request, and reports a compaction. */
export async function applyResult(
  context: Context,
  request: LlmRequest,
  key: string,
  read: ReadRequest,
  result: GuardRequestResult,
  appliers: ResultAppliers,
): Promise<void> {
  const agentName = context.agentName;
  applySummary(context, key, read, result, appliers);
  // Background compaction: claimed in this call's state delta, started here, never awaited (adk/runtime/replica-prepared.ts).
  const hooks = appliers.replicas.afterDecision(
    context,
    read.prepared,
    {
      stored: result.summary !== undefined,
      dropped: result.preparedDropped !== undefined,
      preparation: result.preparation,
    },
    read.input.policy.preparedSummaryWaitMs,
  );
  appliers.prepared.afterDecision(
    key,
    agentName,
    read.prepared.local,
    result,
    (preparation) => prepareSummary(preparation, appliers.tokenizer, read.backgroundSummarize),
    hooks,
  );
  const keys = stateKeysFor(agentName);
  if (result.mask !== undefined) context.state.set(keys.mask, result.mask === null ? null : encodeRecord(result.mask));
  if (result.masking) {
    recordMasking(agentName, result.masking.cause);
    appliers.logger.info(
      `${LOG_PREFIX} agent '${agentName}': masked old tool results before content ${result.masking.upTo}, ` +
        `~${result.masking.tokensBefore} -> ~${result.masking.tokensAfter} tokens, no model call` +
        (result.masking.cause === 'cost'
          ? ' (for cost: the window has room, but masking completed turns saves at least maskStaleOutputTokens and pays for the cached prefix it breaks).'
          : ' (for room: a compaction was due).'),
    );
  }
  const usage = trackTurn(result.usage, context.invocationId, result.calibrated, result.budget);
  context.state.set(keys.usage, encodeRecord({ ...usage, windowSource: read.windowChoice.origin }));
  appliers.calls.stash(context, callCountsBetween(read.input.usage, result.usage));
  if (read.requested) context.state.set(keys.compactionRequest, null);
  if (result.contents) request.contents = result.contents;
  recordUtilization(agentName, result.calibrated, result.budget.window);
  if (result.compaction)
    await applyCompaction(context, request, read, result.compaction, appliers.reporter, read.input.policy.strategy);
  if (result.overLimit && result.overLimitNewCause) {
    appliers.logger.warn(
      `${LOG_PREFIX} agent '${agentName}': ${result.overLimit}. Sending it anyway; nothing more can be removed.`,
    );
  }
}

function applySummary(
  context: Context,
  key: string,
  read: ReadRequest,
  result: GuardRequestResult,
  appliers: ResultAppliers,
): void {
  const keys = stateKeysFor(context.agentName);
  if (result.summaryDiscarded) {
    appliers.logger.warn(
      `${LOG_PREFIX} agent '${context.agentName}': stored summary not applied: ${result.summaryDiscarded}. Sending the full history.`,
    );
    context.state.set(keys.summary, null);
  }
  if (result.summary) {
    context.state.set(keys.summary, encodeRecord(result.summary));
    // Read by calls queued behind this one; dropped when the queue empties.
    appliers.queue.share(key, result.summary);
  } else if (read.input.summary && read.input.summary === read.shared) {
    context.state.set(keys.summary, encodeRecord(read.input.summary));
  }
}

async function applyCompaction(
  context: Context,
  request: LlmRequest,
  read: ReadRequest,
  outcome: NonNullable<GuardRequestResult['compaction']>,
  reporter: CompactionReporter,
  strategy: ResolvedPolicy['strategy'],
): Promise<void> {
  const seen = {
    outcome,
    contents: read.contents,
    fingerprints: read.input.fingerprints,
    startedAt: read.input.now,
    summarizerName: read.summarizerName,
    strategy,
    model: request.model,
  };
  const record = reporter.record(context, seen);
  context.state.set(stateKeysFor(context.agentName).lastCompaction, encodeRecord(record));
  await reporter.report(record, seen);
}
