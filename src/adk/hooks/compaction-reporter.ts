/**
 * What follows a compaction: its audit record built from the outcome, kept until the model
 * response carries it, logged, counted in telemetry and passed to `onCompaction` listeners.
 */
import type { Context } from '@google/adk';
import type { Content } from '@google/genai';
import type { CompactionOutcome } from '../../pipeline/guard-request.js';
import type { CompactionRecord } from '../../records/compaction-record.js';
import { mapContentsToEvents } from '../../records/map-contents-to-events.js';
import { buildCompactionRecord } from './build-compaction-record.js';
import { CrowdedTurns } from './crowded-turns.js';
import { recordCompactionTelemetry } from '../../telemetry/guard-metrics.js';
import type { ContextGuardOptions, GuardLogger, ResolvedPolicy } from '../../options.js';
import { callScopeOfContext } from '../runtime/session-scope.js';
import { BoundedMap } from '../../collections/bounded-map.js';
import { logFailure } from '../../logging/failure-log.js';
import { LOG_PREFIX } from '../../logging/log-prefix.js';
import { billSummarizerCall, sumBills, type SummarizerBill } from '../../cost/bill-summary.js';
import type { SummarizerReport } from '../../pipeline/compaction-outcome.js';
import { priceFor, type ModelPrice } from '../../cost/price-table.js';

/** Compaction records awaiting their model response, at most (see remember). */
const MAX_PENDING_RECORDS = 1_000;

/**
 * Called by `guard.onCompaction` with each compaction's audit record, after it is stored; a promise it returns is
 * awaited, any other value ignored (`unknown`, not `void | Promise<void>`: TypeScript lets any return through a plain
 * `void` only, and the usual `(r) => records.push(r)` did not compile; the seventeenth outside trial).
 */
export type CompactionListener = (record: CompactionRecord) => unknown;

/** One compaction as the shell saw it: the outcome, the contents it covered and its timing. */
interface CompactionSeen {
  readonly outcome: CompactionOutcome;
  readonly contents: readonly Content[];
  readonly fingerprints: readonly string[];
  readonly startedAt: number;
  readonly summarizerName: string | undefined;
  /** The name its price is looked up by (adk/hooks/read-request.ts). */
  readonly summarizerPricedAs: string | undefined;
  readonly strategy: ResolvedPolicy['strategy'];
  readonly model: string | undefined;
  /** Set when the summary was prepared in the background and applied alone: the id its bill is recorded under. */
  readonly preparationId?: string | undefined;
  /** The turn was aborted (`abortSignal`) while the call compacted: a summarizer failure then is the abort's. */
  readonly aborted?: boolean | undefined;
}

/**
 * A compaction's record awaiting its model response, with the preparation its summarizer bill belongs to; or only
 * the summarizer's bill of a summary the call made and did not keep.
 */
interface PendingCompaction {
  readonly record?: CompactionRecord | undefined;
  readonly preparationId?: string | undefined;
  readonly discardedBill?: SummarizerBill | undefined;
}

export class CompactionReporter {
  private readonly listeners = new Set<CompactionListener>();
  /** Records of compactions whose model response has not arrived yet, by session, invocation and agent. */
  private readonly pending = new BoundedMap<string, PendingCompaction>(MAX_PENDING_RECORDS);
  private readonly crowded: CrowdedTurns;

  constructor(
    private readonly options: ContextGuardOptions,
    private readonly logger: GuardLogger,
  ) {
    if (options.onCompaction) this.listeners.add(options.onCompaction);
    this.crowded = new CrowdedTurns(logger);
  }

  /** @throws TypeError for a listener that is not a function (it would fail at the first compaction, unseen). */
  listen(listener: CompactionListener): () => void {
    if (typeof listener !== 'function')
      throw new TypeError(`ContextGuard: onCompaction() expects a function; got ${typeof listener}.`);
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The record of a compaction, kept for its model response. */
  record(context: Context, seen: CompactionSeen): CompactionRecord {
    const record = buildRecord(
      context,
      seen,
      Date.now() - seen.startedAt,
      this.options.debugSummarizerErrorText === true,
      priceFor(seen.summarizerPricedAs, this.options.prices),
    );
    this.remember(context, { record, preparationId: seen.preparationId });
    return record;
  }

  /** The priced bill of a summary this call made and did not keep (the provider billed it), kept for the call's record. */
  discarded(context: Context, figures: SummarizerReport, pricedAs: string | undefined): SummarizerBill | undefined {
    const bill = billSummarizerCall(figures, priceFor(pricedAs, this.options.prices));
    if (bill) this.remember(context, { discardedBill: bill });
    return bill;
  }

  /** Warns once per agent and window that the fixed part leaves its turns no room (the decision's `crowdedRoom`). */
  crowdedRoom(agentName: string, window: number, note: string): void {
    this.crowded.crowdedRoom(agentName, window, note);
  }

  /** Logs, counts and notifies a compaction whose record is stored. */
  async report(record: CompactionRecord, seen: CompactionSeen): Promise<void> {
    this.log(record, seen.outcome.fallbackDetail, seen.aborted === true);
    this.crowded.compacted(record);
    recordCompactionTelemetry(record, seen.model);
    await this.notify(record);
  }

  /** The record of the compaction made for the call of this scope (runtime/session-scope.ts), once. */
  take(callScope: string): PendingCompaction | undefined {
    return this.pending.take(callScope);
  }

  /**
   * Keeps a record until its model response arrives. A call that is aborted gets neither an
   * after-model nor an error callback, so the map is bounded: the oldest entries go first
   * (their records are in state as `last_compaction` anyway).
   */
  private remember(context: Context, pending: PendingCompaction): void {
    const key = callScopeOfContext(context);
    const before = this.pending.get(key);
    // One call may compact, be refused, and make a summary again it does not keep (review 18): both are its.
    const discardedBill = sumBills(before?.discardedBill, pending.discardedBill);
    this.pending.set(key, { ...before, ...pending, discardedBill });
  }

  private log(record: CompactionRecord, detail: string | undefined, aborted: boolean): void {
    const how = record.fallback ? 'fallback summary' : `summary by ${record.summarizer}`;
    this.logger.info(
      `${LOG_PREFIX} agent '${record.agentName}': compacted contents ${record.coveredContents.from}..${record.coveredContents.to} ` +
        `(${record.coveredEvents.count} events), ~${record.tokensBefore} -> ~${record.tokensAfter} tokens, ${how}, ${record.durationMs} ms.`,
    );
    if (record.fallback && aborted)
      // The thirty-fifth outside trial: an abort of the turn read as the summarizer failing, at warn.
      this.logger.info(
        `${LOG_PREFIX} agent '${record.agentName}': the turn was aborted while summarizing; mechanical summary.`,
      );
    else if (record.fallback) {
      // Only the kind of failure at warn level: a provider's error text can quote the conversation.
      const kind = record.fallbackReason ?? 'failed';
      // The kind's own words: a summarizer that answered with no text is not unavailable (trial 42).
      const what =
        kind === 'empty'
          ? 'returned no text'
          : kind === 'cut'
            ? 'was cut short by its output cap'
            : kind === 'timeout'
              ? 'timed out'
              : kind === 'unavailable'
                ? 'not available'
                : 'failed';
      this.logger.warn(
        `${LOG_PREFIX} agent '${record.agentName}': summarizer ${what} (${kind}); used the mechanical summary.`,
      );
      this.logger.debug(`${LOG_PREFIX} agent '${record.agentName}': summarizer failure: ${detail ?? ''}`);
    }
  }

  private async notify(record: CompactionRecord): Promise<void> {
    for (const listener of this.listeners) {
      try {
        await listener(record);
      } catch (error) {
        logFailure(this.logger, 'error', `${LOG_PREFIX} an onCompaction listener failed; ignored.`, error);
      }
    }
  }
}

function buildRecord(
  context: Context,
  seen: CompactionSeen,
  durationMs: number,
  withDetail: boolean,
  summarizerPrice: ModelPrice | undefined,
): CompactionRecord {
  const { from, to } = seen.outcome.coveredContents;
  return buildCompactionRecord(seen.outcome, {
    agentName: context.agentName,
    sessionId: context.sessionId,
    invocationId: context.invocationId,
    strategy: seen.strategy,
    coveredEvents: mapContentsToEvents(
      context.invocationContext.session.events,
      seen.contents.slice(from, to),
      seen.fingerprints.slice(from, to),
    ),
    summarizerName: seen.summarizerName,
    createdAt: seen.startedAt,
    durationMs,
    withDetail,
    summarizerCostUsd: billSummarizerCall(seen.outcome, summarizerPrice)?.costUsd,
  });
}
