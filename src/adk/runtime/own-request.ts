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

/**
 * Whether a user message of another invocation was appended after this invocation's own: another turn runs. A later
 * user content in the request alone is not that: ADK's `load_artifacts` appends the artifact as one, and a `Workflow`
 * node gets the node before it's output as one (review 15). Read from the end back to the own message: the turn's
 * events, no more.
 */
function anotherTurnStarted(events: readonly SessionEvent[], invocationId: string): boolean {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i];
    if (event?.author !== 'user') continue;
    if (event.invocationId === invocationId) return false;
    if (isUserRequest(event.content)) return true;
  }
  return false;
}

/**
 * Index of `own` (the invocation's `userContent`) in `contents` when a user message of another turn, appended to the
 * session after it, follows it there; else undefined.
 */
export function concurrentOwnRequestAt(
  contents: readonly Content[],
  own: Content | undefined,
  session: { readonly events: readonly SessionEvent[]; readonly invocationId: string },
): number | undefined {
  if (!own || !isUserRequest(own) || !anotherTurnStarted(session.events, session.invocationId)) return undefined;
  let at = latestUserRequestIndex(contents);
  if (at < 0 || sameMessage(contents[at], own)) return undefined;
  for (let looked = 0; looked < MAX_TURNS_IN_FLIGHT && at > 0; looked++) {
    at = latestUserRequestIndex(contents, at);
    if (at < 0) return undefined;
    if (sameMessage(contents[at], own)) return at;
  }
  return undefined;
}
