/**
 * Background compaction across replicas, the shell's part. A replica that starts a preparation claims
 * it in the state delta of that model call; when the summary is made it is written to its own state
 * key by a state-only event appended then, through the session service. Any replica then applies it
 * after checking, as for its own, that the history it covers is unchanged (preparation/prepared-summary.ts).
 * A replica at the threshold while another's preparation is in flight re-reads the session until the
 * summary arrives or `preparedSummaryWaitMs` passes, then summarizes itself (counted and logged).
 * Every call to the session service here is bounded by that same wait.
 */
import { randomUUID } from 'node:crypto';
import type { BaseSessionService, Context } from '@google/adk';
import { claimOf, type PreparedHandle } from '../../preparation/prepared-summary.js';
import { preparedSource, remoteWaitDeadline, type PreparedSource } from '../../preparation/prepared-source.js';
import type { PreparationRequest } from '../../preparation/plan.js';
import { encodeRecord } from '../../state/codec.js';
import type { NewSummary } from '../../summary/new-summary.js';
import {
  decodePreparationClaim,
  decodeStoredPreparedSummary,
  restorePrepared,
  storePrepared,
  type PreparationClaim,
  type StoredPreparedSummary,
} from '../../preparation/prepared-record.js';
import { stateKeysFor } from '../../state/keys.js';
import { recordPreparedWaitExpired } from '../../telemetry/guard-metrics.js';
import type { GuardLogger, ResolvedPolicy } from '../../options.js';
import type { LocalPrepared, PreparationHooks } from './prepared-summaries.js';
import { appendStateEvent } from './state-event.js';
import { noteChildCall } from './agent-tool-caller.js';
import { logFailure } from '../../logging/failure-log.js';
import { withinTime } from '../../offload/within-time.js';
import { LOG_PREFIX } from '../../logging/log-prefix.js';
import { billSummarizerCall } from '../../cost/bill-summary.js';
import type { ModelPrice } from '../../cost/price-table.js';
import { summarizerReport } from '../../pipeline/compaction-outcome.js';
import {
  buildCallRecord,
  CALL_METADATA_KEY,
  encodeCallRecord,
  PREPARED_EVENT_KIND,
} from '../../records/call-record.js';
import { recordSummarizerTelemetry } from '../../telemetry/bill-metrics.js';

/** First and longest pause between two reads of the session while waiting for another replica's summary. */
const FIRST_POLL_MS = 25;
const MAX_POLL_MS = 1_000;

/** Where a session is stored: enough to read it again and append to it from outside the turn. */
interface SessionAddress {
  readonly sessionService: BaseSessionService;
  readonly appName: string;
  readonly userId: string;
  readonly sessionId: string;
}

/** The claim and the prepared summary of an agent, as a session's state holds them. */
interface PreparedInState {
  readonly claim: PreparationClaim | undefined;
  readonly stored: StoredPreparedSummary | undefined;
}

/** What the reader found: the handle the decision is given, and what applying the result needs. */
export interface PreparedLookup extends PreparedInState {
  readonly source: PreparedSource;
  readonly handle: PreparedHandle | undefined;
  /** The id of the preparation `handle` takes (its claim's): its bill is recorded under it. */
  readonly id?: string | undefined;
  /** This process's preparation of the session and agent, if any (dropped once used or invalid). */
  readonly local: LocalPrepared | undefined;
}

function sessionAddressOf(context: Context): SessionAddress | undefined {
  const { sessionService, appName } = context.invocationContext;
  return sessionService && { sessionService, appName, userId: context.userId, sessionId: context.sessionId };
}

/** `read`: a session's state by key (a `State`'s `get`, or a record's index). */
export function preparedInState(
  state: Readonly<Record<string, unknown>> | ((key: string) => unknown),
  agentName: string,
): PreparedInState {
  const keys = stateKeysFor(agentName);
  const read = typeof state === 'function' ? state : (key: string) => state[key];
  return {
    claim: decodePreparationClaim(read(keys.preparation)),
    stored: decodeStoredPreparedSummary(read(keys.prepared)),
  };
}

async function readAgain(address: SessionAddress, agentName: string, ms: number): Promise<PreparedInState | undefined> {
  const { sessionService, appName, userId, sessionId } = address;
  const read = await withinTime(
    () => sessionService.getSession({ appName, userId, sessionId, config: { numRecentEvents: 1 } }),
    ms,
  );
  return read.status === 'done' && read.value ? preparedInState(read.value.state, agentName) : undefined;
}

/** What a preparation started by a call needs to bill its summarizer call when it settles. */
interface PreparationSettings {
  /** The bound of every call to the session service here. */
  readonly waitMs: number;
  /** The summarizer model's name, for telemetry, and the name it is priced by. */
  readonly summarizerName: string | undefined;
  readonly summarizerPricedAs: string | undefined;
}

export class ReplicaPrepared {
  constructor(
    private readonly logger: GuardLogger,
    private readonly priceOf: (model: string | undefined) => ModelPrice | undefined = () => undefined,
  ) {}

  /** The prepared summary that applies to this call, from this process, from state, or (waited for) from another replica. */
  lookup(context: Context, policy: ResolvedPolicy, local: LocalPrepared | undefined): PreparedLookup {
    // Two keys read, not the whole state copied: this runs on every model call.
    const inState = preparedInState((key) => context.state.get<unknown>(key), context.agentName);
    const { claim, stored } = inState;
    const source = preparedSource(claim, stored?.id, local ? (local.id ?? null) : undefined);
    const found = { ...inState, source, local };
    if (source === 'local') return { ...found, handle: local, id: local?.id };
    if (source === 'stored' && stored)
      return {
        ...found,
        id: stored.id,
        handle: {
          previous: stored.previous,
          watermark: stored.watermark,
          answers: stored.answers,
          take: async () => ({ prepared: restorePrepared(stored), waitedMs: 0 }),
        },
      };
    const address = sessionAddressOf(context);
    if (source === 'remote' && claim && address)
      return {
        ...found,
        id: claim.id,
        handle: {
          previous: claim.previous,
          watermark: claim.watermark,
          answers: claim.answers,
          take: () => this.await(address, context.agentName, claim, policy),
        },
      };
    return { ...found, handle: undefined };
  }

  /**
   * The state delta of this call for preparations (claim made, claim and summary cleared once a summary was
   * stored or the one in force no longer applies), and the hooks of a preparation it starts.
   */
  afterDecision(
    context: Context,
    lookup: PreparedLookup,
    decided: {
      readonly stored: boolean;
      readonly dropped: boolean;
      readonly preparation: PreparationRequest | undefined;
    },
    settings: PreparationSettings,
  ): PreparationHooks {
    const keys = stateKeysFor(context.agentName);
    const { claim, stored } = lookup;
    const settled = decided.stored || decided.dropped;
    if (claim && (settled || decided.preparation)) context.state.set(keys.preparation, null);
    // A stored summary is cleared once applied or replaced, and when it answers no claim (another replica's, late).
    if (stored && (settled || decided.preparation || stored.id !== claim?.id)) context.state.set(keys.prepared, null);
    if (!decided.preparation) return {};
    const made = claimOf(randomUUID(), decided.preparation);
    context.state.set(keys.preparation, encodeRecord(made));
    const address = sessionAddressOf(context);
    return {
      id: made.id,
      onPrepared: (prepared, current) =>
        this.settled({ address, agentName: context.agentName, claim: made, settings }, prepared, current),
    };
  }

  /**
   * A background summary made: its summarizer call billed now, whatever becomes of the summary (the provider
   * bills it): in telemetry here, and as a call record on the session event that stores the summary (a state
   * event of its own once the summary can no longer be applied). The call that applies it records the same
   * bill under the same preparation id, counted once (records/call-totals.ts).
   */
  private settled(preparation: SettledPreparation, prepared: NewSummary, current: boolean): void {
    const { address, agentName, claim, settings } = preparation;
    const bill = billSummarizerCall(summarizerReport(prepared.outcome), this.priceOf(settings.summarizerPricedAs));
    if (bill) recordSummarizerTelemetry(agentName, settings.summarizerName, bill);
    const record = bill && buildCallRecord(randomUUID(), agentName, undefined, undefined, bill, claim.id);
    if (!address || (!record && !current)) return;
    const delta = current ? { [stateKeysFor(agentName).prepared]: encodeRecord(storePrepared(claim, prepared)) } : {};
    const encoded = record && encodeCallRecord(record);
    const metadata = encoded && { [CALL_METADATA_KEY]: encoded };
    // Settled inside an `AgentTool` child's run: the caller's answer carries its bill too (trial 53).
    if (encoded) noteChildCall(PREPARED_EVENT_KIND, encoded);
    void this.write(address, agentName, { delta, metadata, summary: current }, settings.waitMs);
  }

  private async await(
    address: SessionAddress,
    agentName: string,
    claim: PreparationClaim,
    policy: ResolvedPolicy,
  ): Promise<{ prepared: NewSummary | undefined; waitedMs: number }> {
    const startedAt = Date.now();
    const deadline = remoteWaitDeadline(claim, startedAt, policy.preparedSummaryWaitMs, policy.summarizerTimeoutMs);
    let pause = FIRST_POLL_MS;
    for (;;) {
      const left = deadline - Date.now();
      const seen = left > 0 ? await readAgain(address, agentName, left) : undefined;
      if (seen?.stored?.id === claim.id)
        return { prepared: restorePrepared(seen.stored), waitedMs: Date.now() - startedAt };
      // Given up, applied or replaced by the replica that holds the claim now: this call summarizes itself.
      const moved = seen !== undefined && seen.claim?.id !== claim.id;
      if (moved || Date.now() >= deadline) return this.expired(agentName, startedAt, moved);
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, Math.max(0, deadline - Date.now()))));
      pause = Math.min(pause * 2, MAX_POLL_MS);
    }
  }

  private expired(agentName: string, startedAt: number, moved: boolean): { prepared: undefined; waitedMs: number } {
    const waitedMs = Date.now() - startedAt;
    if (!moved) recordPreparedWaitExpired(agentName);
    this.logger.info(
      `${LOG_PREFIX} agent '${agentName}': ` +
        (moved
          ? 'the summary another replica was preparing was given up there; summarizing in this call.'
          : `the summary another replica is preparing did not arrive within ${waitedMs} ms; summarizing in this call.`),
    );
    return { prepared: undefined, waitedMs };
  }

  private async write(address: SessionAddress, agentName: string, event: SettledEvent, waitMs: number): Promise<void> {
    const { sessionService, appName, userId, sessionId } = address;
    const bound = Math.max(waitMs, FIRST_POLL_MS);
    const read = await withinTime(
      () => sessionService.getSession({ appName, userId, sessionId, config: { numRecentEvents: 1 } }),
      bound,
    );
    const session = read.status === 'done' ? read.value : undefined;
    const written = session
      ? await withinTime(
          () => appendStateEvent(sessionService, session, PREPARED_EVENT_KIND, event.delta, event.metadata),
          bound,
        )
      : read;
    if (session && written.status === 'done') return;
    const failure = written.status === 'failed' ? written.error : undefined;
    const why =
      written.status === 'timeout'
        ? `not within ${bound} ms; it may still be stored`
        : failure === undefined
          ? 'session not found'
          : 'failed';
    const message = event.summary
      ? `${LOG_PREFIX} agent '${agentName}': a summary prepared in the background could not be stored in the session (${why}); this replica still applies it, another one summarizes itself.`
      : `${LOG_PREFIX} agent '${agentName}': the bill of a summary prepared in the background could not be stored in the session (${why}); status() may not count that summarizer call.`;
    if (failure !== undefined) logFailure(this.logger, 'warn', message, failure);
    // Only the bill of a summary no call will apply, in a session deleted meanwhile: not worth a warning.
    else if (!event.summary && written.status !== 'timeout') this.logger.debug(message);
    else this.logger.warn(message);
  }
}

/** A preparation as its claiming call started it. */
interface SettledPreparation {
  readonly address: SessionAddress | undefined;
  readonly agentName: string;
  readonly claim: PreparationClaim;
  readonly settings: PreparationSettings;
}

/** The state event a settled preparation appends: the summary while it may be applied, and its bill. */
interface SettledEvent {
  readonly delta: Record<string, unknown>;
  readonly metadata: Record<string, unknown> | undefined;
  /** Whether `delta` stores the summary. */
  readonly summary: boolean;
}
