/**
 * What users do to a session from outside a turn (pin, request a compaction, read the status,
 * forget what is cached), and the in-turn pin of `pinContextTool`: the bodies of the plugin's
 * public methods, over the guard's collaborators and resolved policies.
 */
import type { BaseSessionService, Session, State } from '@google/adk';
import { randomUUID } from 'node:crypto';
import { ContextGuardPinError } from '../errors.js';
import { ALL_AGENTS, type AddPinResult, type Pin, type PinSource } from '../memory/pins.js';
import { compactionRequestDelta } from './runtime/state-writer.js';
import { sumCallRecords, type CountedEvent } from '../records/call-totals.js';
import { withCallTotals } from '../status/counted-status.js';
import { countRecallUse, NO_RECALL_USE } from '../status/recall-use.js';
import { countCutResults } from '../status/cut-results.js';
import { agentStatus, type AgentContextStatus } from '../status/context-status.js';
import { ownAgents } from '../status/own-agents.js';
import type { GuardParts } from './hooks/guard-parts.js';
import type { PolicyCache } from './runtime/policy-cache.js';
import { childScopePrefix, scopeOfRef, sessionIdPrefix, type SessionRef } from './runtime/session-scope.js';
import { appendStateEvent } from './runtime/state-event.js';
import { preparedInState } from './runtime/replica-prepared.js';
import { remoteWaitDeadline } from '../preparation/prepared-source.js';
import { LOG_PREFIX } from '../logging/log-prefix.js';
import {
  SESSION_EXPECTED,
  sessionRefProblem,
  sessionStateProblem,
  storedSessionProblem,
} from '../status/session-argument.js';

/**
 * What `status()` reads: a session's state, and (a `Session` has them) its app, user and id, and
 * its events, whose per-call records give counts that concurrent turns cannot overwrite.
 */
export type StatusSession =
  | { readonly state: Readonly<Record<string, unknown>>; readonly events?: readonly CountedEvent[] | undefined }
  | (SessionRef & {
      readonly state: Readonly<Record<string, unknown>>;
      readonly events?: readonly CountedEvent[] | undefined;
    });

/** A stored session and the service that stores it. */
export interface StoredSession {
  sessionService: BaseSessionService;
  session: Session;
}

export class GuardSessionActions {
  constructor(
    private readonly parts: GuardParts,
    private readonly policies: PolicyCache,
  ) {}

  status(session: StatusSession | undefined, agentName?: string): AgentContextStatus | AgentContextStatus[] {
    // A status call sits in monitoring paths: bad input is logged and answered with nothing known.
    const problem = sessionStateProblem(session);
    if (problem !== undefined || session === undefined) {
      this.parts.logger.warn(`${LOG_PREFIX} status() expects ${SESSION_EXPECTED}; ${problem}. Returning no status.`);
      return agentName === undefined ? [] : agentStatus({}, agentName);
    }
    const scope = 'appName' in session ? scopeOfRef(session) : undefined;
    // One pass over the events for every agent; a session without them (listSessions) sums nothing.
    const totals = sumCallRecords(session.events);
    const recallUse = countRecallUse(session.events);
    const cuts = countCutResults(session.events);
    const of = (name: string): AgentContextStatus => {
      const counted = withCallTotals(
        agentStatus(session.state, name, this.preparing(session, scope, name)),
        totals.get(name),
      );
      // From the events when they hold more (two turns at once lose increments of the state's count).
      const toolResultsCut = Math.max(counted.toolResultsCut, cuts.get(name) ?? 0);
      return { ...counted, toolResultsCut, ...(recallUse.get(name) ?? NO_RECALL_USE) };
    };
    if (agentName !== undefined) return of(agentName);
    const appName = 'appName' in session ? session.appName : undefined;
    return ownAgents(session.state, appName, totals.keys()).map(of);
  }

  /** A summary in preparation: claimed in state by any replica and not stored yet, or in this process. */
  private preparing(session: StatusSession, scope: string | undefined, agentName: string): boolean {
    if (scope !== undefined && this.parts.prepared.preparing(`${scope}\u0000${agentName}`)) return true;
    const { claim, stored } = preparedInState(session.state, agentName);
    if (claim === undefined || stored?.id === claim.id) return false;
    const policy = this.policies.of(agentName);
    return remoteWaitDeadline(claim, Date.now(), policy.preparedSummaryWaitMs, policy.summarizerTimeoutMs) > Date.now();
  }

  async pin(params: StoredSession & { text: string; agentName?: string }): Promise<Pin> {
    // A write the caller counts on: refused with a clear error, never dropped silently.
    const own =
      textProblem(params.text, 'text') ??
      (params.agentName === undefined ? undefined : textProblem(params.agentName, 'agentName'));
    refuseArguments('pin', storedSessionProblem(params), own, '{ sessionService, session, text, agentName? }');
    const agentName = params.agentName ?? ALL_AGENTS;
    const state = params.session.state;
    const cap = this.parts.windows.pinCap(this.policies.of(agentName), agentName, (key) => state[key]);
    const { result, delta } = this.parts.pins.addToRecord(state, agentName, params.text, cap);
    if (!result.ok) throw new ContextGuardPinError(agentName, result.tokens, result.cap);
    // Only the new pin's own key: a pin stored since `session` was read is not rewritten from this copy.
    if (Object.keys(delta).length > 0) await appendStateEvent(params.sessionService, params.session, 'pin', delta);
    return result.pin;
  }

  async requestCompaction(params: StoredSession & { agentName: string }): Promise<void> {
    const own = textProblem(params.agentName, 'agentName');
    refuseArguments('requestCompaction', storedSessionProblem(params), own, '{ sessionService, session, agentName }');
    // A fresh id: a call that read an earlier request marks only that one handled.
    const delta = compactionRequestDelta(params.agentName, randomUUID());
    await appendStateEvent(params.sessionService, params.session, 'compact', delta);
  }

  pinInState(state: State, agentName: string, text: string, source: PinSource, window?: number): AddPinResult {
    const cap = this.parts.windows.pinCap(
      this.policies.of(agentName),
      agentName,
      (key) => state.get<unknown>(key),
      window,
    );
    return this.parts.pins.addInState(state, agentName, text, source, cap);
  }

  forgetSession(session: SessionRef | string): void {
    // Only a cache is released: bad input is logged and nothing is forgotten.
    const problem = typeof session === 'string' ? undefined : sessionRefProblem(session);
    if (problem !== undefined) {
      this.parts.logger.warn(
        `${LOG_PREFIX} forgetSession() expects a session id or ${SESSION_EXPECTED}; ${problem}. Nothing forgotten.`,
      );
      return;
    }
    const prefixes =
      typeof session === 'string'
        ? [sessionIdPrefix(session)]
        : // Its AgentTool children's too, keyed by the apps that called them (the forty-sixth outside trial: kept).
          [`${scopeOfRef(session)}\u0000`, childScopePrefix(session)];
    for (const prefix of prefixes) {
      this.parts.measures.forgetPrefix(prefix);
      this.parts.placeholders.forgetPrefix(prefix);
      this.parts.prepared.forgetPrefix(prefix);
    }
  }
}

/** What is wrong with a text argument: not a string, or empty. */
function textProblem(value: unknown, name: string): string | undefined {
  if (typeof value !== 'string') return `${name} is not a string`;
  return value.trim().length === 0 ? `${name} is empty` : undefined;
}

/** Throws for a wrong argument, naming it first: the session's problem, else the method's own argument's. */
function refuseArguments(
  method: string,
  sessionProblem: string | undefined,
  own: string | undefined,
  takes: string,
): void {
  if (sessionProblem !== undefined)
    throw new TypeError(`ContextGuard: ${method}() expects ${SESSION_EXPECTED}; ${sessionProblem}.`);
  if (own !== undefined) throw new TypeError(`ContextGuard: ${method}(): ${own}; it takes ${takes}.`);
}
