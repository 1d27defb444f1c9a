/**
 * Events across ADK's A2A (`toA2a` serving, `RemoteA2AAgent` calling), before the runner stores them.
 *
 * Client: ADK 2.0.0 makes a remote answer's event with the server's `customMetadata` object and adds
 * `a2a:response`, the response holding that same object, so the metadata holds itself; the runner's
 * `JSON.stringify` of the session's events then throws at the start of every later turn. The event
 * gets a copy of its metadata with the closing reference left out (the data is all still there).
 *
 * Server: ADK's executor sends each event's `customMetadata` to the caller (`adk_custom_metadata`), so
 * any metadata at all starts that cycle in a caller without a guard, and the guard's call records
 * would reach the caller's session. In a run served over A2A (`runConfig.remoteDelivered`, set by
 * ADK's executor) the records go to the session on an event of their own, without content, which
 * the executor never sends; the answer keeps the rest of its metadata.
 */
import { createEvent, type Event, type InvocationContext } from '@google/adk';
import { acyclicCopy, hasCycle } from '../../collections/acyclic-copy.js';
import { cameThroughA2a, splitGuardRecords } from '../../records/remote-records.js';
import type { GuardLogger } from '../../options.js';
import { LOG_PREFIX } from '../../logging/log-prefix.js';

/**
 * Mends `event` in place and returns nothing, so that the plugins after the guard still see it (ADK
 * stops at the first plugin that returns an event). Only the event's `customMetadata` field is
 * replaced; the object it held is left as it was.
 */
export async function mendA2aEvent(
  invocationContext: InvocationContext,
  event: Event,
  logger: GuardLogger,
): Promise<undefined> {
  try {
    // Only an event ADK's A2A client made can hold the cycle: no walk of every event's records on every call.
    if (cameThroughA2a(event.customMetadata) && hasCycle(event.customMetadata ?? {}))
      event.customMetadata = acyclicCopy(event.customMetadata) as Record<string, unknown>;
    if (invocationContext.runConfig?.remoteDelivered === true) await keepRecordsHome(invocationContext, event);
  } catch (error) {
    // Left as ADK made it: the turn goes on (and ADK may fail on it as it did without the guard).
    logger.warn(`${LOG_PREFIX} could not prepare an A2A event (${String(error)}); left as it was.`);
  }
  return undefined;
}

async function keepRecordsHome(invocationContext: InvocationContext, event: Event): Promise<void> {
  // A remote agent's event passing on (a served agent that calls another) keeps the mark that says whose records they are.
  if (event.partial === true || cameThroughA2a(event.customMetadata)) return;
  const split = splitGuardRecords(event.customMetadata);
  const sessionService = invocationContext.sessionService;
  if (!split || !sessionService) return;
  const records = createEvent({
    invocationId: event.invocationId,
    author: event.author,
    ...(event.branch !== undefined ? { branch: event.branch } : {}),
    customMetadata: split.records,
  });
  await sessionService.appendEvent({ session: invocationContext.session, event: records });
  event.customMetadata = split.rest;
}
