/**
 * Tool results the guard cut, counted from a session's events: each cut writes the agent's `tool_truncations` record
 * in its tool response event's state delta, so the events hold one delta per cut. The record's own `count` is read
 * and written from each turn's copy of the session: two turns of one session at once each wrote the same next count,
 * and `status()` showed half the cuts of the results it had offloaded (the thirty-second outside trial). Parallel calls
 * of one step are merged by ADK into one event whose delta keeps one record: there the state's count is right, and
 * `status()` takes whichever of the two counts more.
 */
import { stateKeysFor } from '../state/keys.js';

/** Cuts by agent (the tool response event's author); events of any shape are read defensively. */
export function countCutResults(events: readonly unknown[] | undefined): Map<string, number> {
  const byAgent = new Map<string, number>();
  for (const event of events ?? []) {
    if (typeof event !== 'object' || event === null) continue;
    const { author, actions } = event as { author?: unknown; actions?: { stateDelta?: unknown } };
    const delta = actions?.stateDelta;
    if (typeof author !== 'string' || typeof delta !== 'object' || delta === null) continue;
    if (stateKeysFor(author).toolTruncations in delta) byAgent.set(author, (byAgent.get(author) ?? 0) + 1);
  }
  return byAgent;
}
