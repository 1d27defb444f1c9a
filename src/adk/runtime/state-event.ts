/**
 * Writes to a stored session outside a run: a state-only event through the session service
 * (ADK's own way; the session's state is never edited in place).
 */
import { createEvent, createEventActions, type BaseSessionService, type Session } from '@google/adk';
import { stateEventInvocationId } from '../../records/call-record.js';

/**
 * `kind` names the write in the event's invocation id (`context_guard-<kind>-<time>`); `customMetadata`
 * rides on the event as on a model response's (a record ADK persists verbatim).
 */
export async function appendStateEvent(
  sessionService: BaseSessionService,
  session: Session,
  kind: string,
  stateDelta: Record<string, unknown>,
  customMetadata?: Record<string, unknown>,
): Promise<void> {
  await sessionService.appendEvent({
    session,
    event: createEvent({
      invocationId: stateEventInvocationId(kind, Date.now()),
      author: 'user',
      actions: createEventActions({ stateDelta }),
      ...(customMetadata ? { customMetadata } : {}),
    }),
  });
}
