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
import { logFailure } from '../../logging/failure-log.js';
import { withinTime } from '../../offload/within-time.js';
import { LOG_PREFIX } from '../../logging/log-prefix.js';

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

export class ReplicaPrepared {
  constructor(private readonly logger: GuardLogger) {}

  /** The prepared summary that applies to this call, from this process, from state, or (waited for) from another replica. */
  lookup(context: Context, policy: ResolvedPolicy, local: LocalPrepared | undefined): PreparedLookup {
    // Two keys read, not the whole state copied: this runs on every model call.
    const inState = preparedInState((key) => context.state.get<unknown>(key), context.agentName);
    const { claim, stored } = inState;
    const source = preparedSource(claim, stored?.id, local ? (local.id ?? null) : undefined);
    const found = { ...inState, source, local };
    if (source === 'local') return { ...found, handle: local };
    if (source === 'stored' && stored)
      return {
        ...found,
        handle: {
          previous: stored.previous,
          watermark: stored.watermark,
          take: async () => ({ prepared: restorePrepared(stored), waitedMs: 0 }),
        },
      };
    const address = sessionAddressOf(context);
    if (source === 'remote' && claim && address)
      return {
        ...found,
        handle: {
          previous: claim.previous,
          watermark: claim.watermark,
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
    waitMs: number,
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
      onPrepared: address && ((prepared) => void this.write(address, context.agentName, made, prepared, waitMs)),
    };
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

  private async write(
    address: SessionAddress,
    agentName: string,
    claim: PreparationClaim,
    prepared: NewSummary,
    waitMs: number,
  ): Promise<void> {
    const { sessionService, appName, userId, sessionId } = address;
    const delta = { [stateKeysFor(agentName).prepared]: encodeRecord(storePrepared(claim, prepared)) };
    const bound = Math.max(waitMs, FIRST_POLL_MS);
    const read = await withinTime(
      () => sessionService.getSession({ appName, userId, sessionId, config: { numRecentEvents: 1 } }),
      bound,
    );
    const session = read.status === 'done' ? read.value : undefined;
    const written = session
      ? await withinTime(() => appendStateEvent(sessionService, session, 'prepared', delta), bound)
      : read;
    if (session && written.status === 'done') return;
    const failure = written.status === 'failed' ? written.error : undefined;
    const why =
      written.status === 'timeout' ? `not within ${bound} ms` : failure === undefined ? 'session not found' : 'failed';
    const message = `${LOG_PREFIX} agent '${agentName}': a summary prepared in the background could not be stored in the session (${why}); this replica still applies it, another one summarizes itself.`;
    if (failure === undefined) {
      this.logger.warn(message);
      return;
    }
    logFailure(this.logger, 'warn', message, failure);
  }
}
