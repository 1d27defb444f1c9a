/**
 * The session's events as the measure cache reads them (estimate/content-measure-cache.ts): whether the session only
 * grew by appending since the last call, and the ids it knows.
 */

/** The session's events as the call reads them (ADK's `session.events`): their ids and order, and the new ones' calls and responses. */
export type SessionEventIds = readonly {
  readonly id?: unknown;
  readonly author?: unknown;
  readonly content?: {
    readonly parts?: readonly {
      readonly functionCall?: { readonly id?: string | undefined } | undefined;
      readonly functionResponse?: { readonly id?: string | undefined } | undefined;
    }[];
  };
}[];

/**
 * Whether `events` begin with the events of `known`, in the same order: the session only grew by appending.
 * A compare per event, by a string the same object shares within a turn (one reloaded per turn); on the
 * very list read last time (`read`), or on any list of a store that keeps its events in the order
 * appended (`appendOnly`), only its last known id: ADK only appends to it (reading every event of a
 * history just copied by ADK costs a cache miss each). A list cut to its latest events moves that id.
 */
export function appendedTo(
  known: readonly string[] | undefined,
  events: SessionEventIds,
  read: SessionEventIds | undefined,
  appendOnly: boolean,
): boolean {
  if (known === undefined || known.length > events.length) return false;
  const from = read === events || appendOnly ? Math.max(0, known.length - 1) : 0;
  for (let i = from; i < known.length; i++) if (events[i]?.id !== known[i]) return false;
  return true;
}

/**
 * Whether a function response among the events from `from` on answers a call made before `from`: ADK places such a
 * late answer (a long-running tool's, a confirmation's) right after its call, inside the history known before, in
 * place of the call's pending response or before the contents that followed it (the sixteenth outside trial). The
 * application sends such an answer as the user's message: a response an agent's own event holds is its tool's,
 * and in a `ParallelAgent` another branch's answers a call made before this branch's last request (review 15).
 */
export function answersAnEarlierCall(events: SessionEventIds, from: number): boolean {
  const calls = new Set<string>();
  for (let i = from; i < events.length; i++) {
    for (const part of events[i]?.content?.parts ?? []) {
      if (part.functionCall?.id) calls.add(part.functionCall.id);
      const answered = part.functionResponse?.id;
      if (answered && events[i]?.author === 'user' && !calls.has(answered)) return true;
    }
  }
  return false;
}

/** `known` grown to the ids of `events` (which it leads), or rebuilt; undefined when an event has no id. */
export function idsOf(known: string[] | undefined, events: SessionEventIds, extend: boolean): string[] | undefined {
  const ids = extend && known ? known : [];
  for (let i = ids.length; i < events.length; i++) {
    const id = events[i]?.id;
    if (typeof id !== 'string') return undefined;
    ids.push(id);
  }
  return ids;
}
