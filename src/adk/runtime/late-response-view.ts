/**
 * ADK's view of a late long-running answer. When the session's latest event holds function responses whose call is
 * not in the event right before it (a `LongRunningFunctionTool`'s final answer sent turns later),
 * `rearrangeEventsForLatestFunctionResponse` builds that one request from the events up to the call and the
 * response, and leaves out everything after the call; the next request has the whole history again. A summary
 * or mask stored for the whole history does not fit that view, and must outlive it (the fourteenth outside trial:
 * clearing them there lost five compactions' summary and 30 of 31 durable facts).
 */
import type { Event } from '@google/adk';

function responseIds(event: Event | undefined): Set<string> {
  const ids = new Set<string>();
  for (const part of event?.content?.parts ?? []) {
    const id = part.functionResponse?.id;
    if (id) ids.add(id);
  }
  return ids;
}

/** Whether ADK builds this call's request from the history up to a late answer's function call (ADK's own test). */
export function isLateResponseView(events: readonly Event[] | undefined): boolean {
  const ids = responseIds(events?.at(-1));
  if (ids.size === 0) return false;
  const before = events?.at(-2)?.content?.parts ?? [];
  return !before.some((part) => part.functionCall?.id !== undefined && ids.has(part.functionCall.id));
}
