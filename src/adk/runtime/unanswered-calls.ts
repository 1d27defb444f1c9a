/**
 * The calls of a session still awaiting the application's answer, read from its events: a long-running tool's call
 * (ADK marks it in the event's `longRunningToolIds`) until a user-authored response with its id comes, and a call
 * waiting for the user's confirmation (ADK's `adk_request_confirmation`, also long-running) until the confirmation
 * comes. A summary that covers such a call lists it while it is pending (summary/awaited-calls.ts).
 */
import { pendingCallOf, withResponseSoFar, type PendingCall } from '../../summary/awaited-calls.js';
import { BoundedMap } from '../../collections/bounded-map.js';
import { answerKey } from '../../content/answer-key.js';
import { resumeAt, scanEnd, type EventScan } from './event-scan.js';

interface EventPart {
  readonly functionCall?: {
    readonly id?: string | undefined;
    readonly name?: string | undefined;
    readonly args?: unknown;
  };
  readonly functionResponse?: { readonly id?: string | undefined; readonly response?: unknown };
}

/** The parts of a session event read here. */
interface CallEvent {
  readonly id?: string | undefined;
  readonly author?: string | undefined;
  readonly longRunningToolIds?: readonly string[] | undefined;
  readonly content?: { readonly parts?: readonly EventPart[] } | undefined;
}

const CONFIRMATION = 'adk_request_confirmation';
/** Pending calls remembered per session at most (the latest): more than a session is expected to wait on. */
const MAX_PENDING = 32;
/** Sessions remembered at most; the oldest are read afresh. */
const MAX_SESSIONS = 10_000;

interface Scan extends EventScan {
  readonly pending: readonly PendingCall[];
}

/** By session (app, user, id) and agent; each call reads only the events new since the last (event-scan.ts). */
const scans = new BoundedMap<string, Scan>(MAX_SESSIONS);

/**
 * The calls `agent` made in `events` that still await the application's answer, oldest first. Another agent's calls
 * are not its own: ADK shows them to it as text, and a call of its own with the same name and arguments is another.
 */
export function unansweredCalls(events: readonly CallEvent[], key: string, agent: string): readonly PendingCall[] {
  const known = scans.get(key);
  const from = resumeAt(events, known);
  let pending = from > 0 && known ? known.pending : [];
  for (let i = from; i < events.length; i++) {
    const event = events[i];
    if (event) pending = afterEvent(pending, event, agent, (call) => equalCallsAfter(events, i, agent, call));
  }
  scans.set(key, { ...scanEnd(events), pending });
  return pending;
}

/** `pending` after `event`: its responses answer (from the user) or update (the tool's own) calls, its calls wait. */
function afterEvent(
  pending: readonly PendingCall[],
  event: CallEvent,
  agent: string,
  laterEqual: (call: MadeCall) => number,
): readonly PendingCall[] {
  let next = pending;
  for (const part of event.content?.parts ?? []) {
    const response = part.functionResponse;
    if (!response?.id || !next.some((call) => call.id === response.id)) continue;
    next =
      event.author === 'user'
        ? next.filter((call) => call.id !== response.id)
        : next.map((call) => (call.id === response.id ? withResponseSoFar(call, response.response) : call));
  }
  if (event.author !== agent) return next;
  const longRunning = event.longRunningToolIds ?? [];
  for (const part of event.content?.parts ?? []) {
    const call = part.functionCall;
    if (!call?.id) continue;
    next = withLaterCall(next, call.id, call.name ?? '', call.args);
    if (!longRunning.includes(call.id)) continue;
    const made = madeCallOf(call.id, call.name ?? '', call.args);
    const after = made?.confirmation ? laterEqual(made) : 0;
    const waiting = made && pendingCallOf(call.id, made.name, made.args, after, made.confirmation);
    if (waiting) next = [...next, waiting].slice(-MAX_PENDING);
  }
  return next;
}

/**
 * `pending` after the agent made the call `id`: a pending call equal to it has one more equal call after it. The request
 * holds no ids, so a pending call is found among equal ones by how many came after it, counted from the request's end:
 * ADK may leave earlier events out of a request (`includeContents: 'none'`, a workflow's isolation scope), never later
 * ones (review 28: matched latest first, a skipped confirmation lost its line to a later equal call; review 29: counted
 * from the session's start, a call was not found in a request without the earlier events). Only a call of a pending
 * call's tool is hashed.
 */
function withLaterCall(
  pending: readonly PendingCall[],
  id: string,
  name: string,
  args: unknown,
): readonly PendingCall[] {
  if (!pending.some((call) => call.name === name && call.id !== id)) return pending;
  const key = answerKey(name, args ?? {});
  return pending.map((call) => (call.key === key && call.id !== id ? { ...call, after: call.after + 1 } : call));
}

/** The call the model made that a long-running call waits on: itself, or the call a confirmation is asked for. */
interface MadeCall {
  readonly id: string;
  readonly name: string;
  readonly args: unknown;
  readonly confirmation: boolean;
}

/** A long-running call as the model made it; ADK's own requests only when they are a confirmation of the model's call. */
function madeCallOf(id: string, name: string, args: unknown): MadeCall | undefined {
  if (name === CONFIRMATION) {
    const original = (args as { originalFunctionCall?: { id?: unknown; name?: unknown; args?: unknown } } | undefined)
      ?.originalFunctionCall;
    if (typeof original?.name !== 'string') return undefined;
    const made = typeof original.id === 'string' ? original.id : id;
    return { id: made, name: original.name, args: original.args, confirmation: true };
  }
  return name.startsWith('adk_request') ? undefined : { id, name, args, confirmation: false };
}

/**
 * How many equal calls (name and arguments) `agent` made after the call a confirmation in `events[upTo]` asks about:
 * read back from the confirmation to that call (ADK asks right after it is made), so a few events at most.
 */
function equalCallsAfter(events: readonly CallEvent[], upTo: number, agent: string, call: MadeCall): number {
  const key = answerKey(call.name, call.args ?? {});
  let after = 0;
  for (let i = Math.min(upTo, events.length - 1); i >= 0; i--) {
    if (events[i]?.author !== agent) continue;
    const parts = events[i]?.content?.parts ?? [];
    for (let at = parts.length - 1; at >= 0; at--) {
      const made = parts[at]?.functionCall;
      if (made?.name !== call.name) continue;
      if (made.id === call.id) return after;
      if (answerKey(call.name, made.args ?? {}) === key) after += 1;
    }
  }
  // Not found by its id (a confirmation naming no original call id): the latest equal call, counted above, is it.
  return Math.max(0, after - 1);
}
