/**
 * Where a per-session scan of a session's events resumes: ADK gives each invocation a new list of the session's
 * events, which starts with the events read before, so a scan reads only the events new since. A list whose head is
 * not what was read (another session's list under the key, a rewind, a window of recent events) is read afresh.
 */

/** How far a scan read: the number of events, and the id of the last one. */
export interface EventScan {
  readonly length: number;
  readonly lastId: string | undefined;
}

interface ScannedEvent {
  readonly id?: string | undefined;
}

/** Where the events `known` read end in `events`: its length when they are still its head, else 0. */
export function resumeAt(events: readonly ScannedEvent[], known: EventScan | undefined): number {
  if (!known || known.length > events.length || known.length === 0) return 0;
  return events[known.length - 1]?.id === known.lastId ? known.length : 0;
}

/** How far a scan of all of `events` read. */
export function scanEnd(events: readonly ScannedEvent[]): EventScan {
  return { length: events.length, lastId: events[events.length - 1]?.id };
}
