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
    if (event) pending = afterEvent(pending, event, agent, (call) => occurrenceOf(events, i, agent, call));
  }
  scans.set(key, { ...scanEnd(events), pending });
  return pending;
}

/** `pending` after `event`: its responses answer (from the user) or update (the tool's own) calls, its calls wait. */
function afterEvent(
  pending: readonly PendingCall[],
  event: CallEvent,
  agent: string,
  occurrence: (call: MadeCall) => number,
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
  const longRunning = event.longRunningToolIds ?? [];
  if (longRunning.length === 0 || event.author !== agent) return next;
  for (const part of event.content?.parts ?? []) {
    const call = part.functionCall;
    if (call?.id && longRunning.includes(call.id)) {
      const made = madeCallOf(call.id, call.name ?? '', call.args);
      const waiting = made && pendingCallOf(call.id, made.name, made.args, occurrence(made), made.confirmation);
      if (waiting) next = [...next, waiting].slice(-MAX_PENDING);
    }
  }
  return next;
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
 * How many equal calls (name and arguments) `agent` made before `call` in `events[0, upTo]`: the request holds no
 * ids, so a pending call is found among equal ones by its place (review 28: a confirmation skipped, then the same
 * call made and confirmed; matched latest first, the skipped one lost its line). Read once, when the call is made.
 */
function occurrenceOf(events: readonly CallEvent[], upTo: number, agent: string, call: MadeCall): number {
  const key = answerKey(call.name, call.args ?? {});
  let before = 0;
  for (let i = 0; i <= upTo && i < events.length; i++) {
    if (events[i]?.author !== agent) continue;
    for (const part of events[i]?.content?.parts ?? []) {
      const made = part.functionCall;
      if (made?.name !== call.name) continue;
      if (made.id === call.id) return before;
      if (answerKey(call.name, made.args ?? {}) === key) before += 1;
    }
  }
  // Not found by its id (a confirmation naming no original id): the latest equal call, counted above, is it.
  return Math.max(0, before - 1);
}
