/**
 * The invocation's own user message in its request, when it is not the latest one: two turns of one session run at
 * once (a user who sends again before the answer came), and on a session service that reloads the session each
 * turn (a database) each turn's request holds both messages. The guard keeps the latest user message through a
 * compaction, so one turn's request lost its own message into the summary and the model answered the other turn's
 * question (the eighteenth outside trial: 8 such requests in 40 turns on SQLite, 3-4 on PostgreSQL with two replicas).
 */
import type { Content, Part } from '@google/genai';
import { isUserRequest, latestUserRequestIndex } from '../../content/content-shape.js';

/** User messages looked back through for the own one: more turns than that in flight at once are not expected. */
const MAX_TURNS_IN_FLIGHT = 16;

const samePart = (a: Part | undefined, b: Part | undefined): boolean =>
  a?.text === b?.text && a?.inlineData?.data === b?.inlineData?.data && a?.fileData?.fileUri === b?.fileData?.fileUri;

/** Whether `content` holds the message `own` (ADK's request holds a copy of it: compared part by part). */
function sameMessage(content: Content | undefined, own: Content): boolean {
  const parts = content?.parts ?? [];
  const ownParts = own.parts ?? [];
  return parts.length === ownParts.length && parts.every((part, i) => samePart(part, ownParts[i]));
}

/** The parts of a session event read here. */
interface SessionEvent {
  readonly author?: string | undefined;
  readonly invocationId?: string | undefined;
  readonly content?: Content | undefined;
}

/** What was read of one session's events for one invocation: how far, and the answer there. */
interface TurnScan {
  readonly invocationId: string;
  readonly length: number;
  readonly another: boolean;
}

/**
 * By the session's event list: ADK appends each event to the invocation's list (a database service that finds the
 * session written elsewhere loads a new list), so each later call of the turn reads only the events new since.
 */
const scans = new WeakMap<readonly SessionEvent[], TurnScan>();

/**
 * Whether another invocation wrote to the session after this invocation's own message: another turn runs at the same
 * time (its user message, or its model and tool events after this turn's message). A later user content in the
 * request alone is not that: ADK's `load_artifacts` appends the artifact as one, and a `Workflow` node gets the node
 * before it's output as one, both of this invocation (review 15). An event without content (the guard's own record of
 * a summary prepared in the background) is not a turn.
 */
function anotherTurnRuns(events: readonly SessionEvent[], invocationId: string): boolean {
  const known = scans.get(events);
  const another =
    known?.invocationId === invocationId && known.length <= events.length
      ? readForward(events, known, invocationId)
      : readBack(events, invocationId);
  scans.set(events, { invocationId, length: events.length, another });
  return another;
}

/** From the end back to the invocation's own message: the turn's events. */
function readBack(events: readonly SessionEvent[], invocationId: string): boolean {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i];
    if (!event?.content) continue;
    if (event.invocationId !== invocationId) return true;
    if (event.author === 'user') return false;
  }
  return false;
}

/** The answer at `known.length`, carried over the events since: a user content of the invocation starts it again. */
function readForward(events: readonly SessionEvent[], known: TurnScan, invocationId: string): boolean {
  let another = known.another;
  for (let i = known.length; i < events.length; i++) {
    const event = events[i];
    if (!event?.content) continue;
    if (event.invocationId !== invocationId) another = true;
    else if (event.author === 'user') another = false;
  }
  return another;
}

/**
 * Index of `own` (the invocation's `userContent`) in `contents` when another turn of the session runs at the same
 * time; else undefined. Looked for from the latest user message back (the other turn's may follow it).
 */
export function concurrentOwnRequestAt(
  contents: readonly Content[],
  own: Content | undefined,
  session: { readonly events: readonly SessionEvent[]; readonly invocationId: string },
): number | undefined {
  if (!own || !isUserRequest(own) || !anotherTurnRuns(session.events, session.invocationId)) return undefined;
  let at = contents.length;
  for (let looked = 0; looked <= MAX_TURNS_IN_FLIGHT && at > 0; looked++) {
    at = latestUserRequestIndex(contents, at);
    if (at < 0) return undefined;
    if (sameMessage(contents[at], own)) return at;
  }
  return undefined;
}

/** `concurrentOwnRequestAt` of an invocation's request. */
export function ownRequestIn(
  contents: readonly Content[],
  invocation: {
    readonly userContent?: Content | undefined;
    readonly invocationId: string;
    readonly session: { readonly events: readonly SessionEvent[] };
  },
): number | undefined {
  const { userContent, invocationId, session } = invocation;
  return concurrentOwnRequestAt(contents, userContent, { events: session.events, invocationId });
}
