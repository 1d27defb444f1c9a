/**
 * ADK's view of a late long-running answer. When the latest event of an agent's history holds function responses
 * whose call is not in the event right before it (a `LongRunningFunctionTool`'s final answer sent turns later),
 * `rearrangeEventsForLatestFunctionResponse` builds that one request from the events up to the call and the
 * response, and leaves out everything after the call; the next request has the whole history again. A summary
 * or mask stored for the whole history does not fit that view, and must outlive it (the fourteenth outside trial:
 * clearing them there lost five compactions' summary and 30 of 31 durable facts).
 *
 * The history is the one ADK builds the agent's request from (`getContents`): events with content, of the agent's
 * branch and isolation scope; another agent's events are rendered as text there, so their calls and responses do
 * not count (review 14: in a `ParallelAgent`, the branch before a response was another branch's event).
 */
import type { Event } from '@google/adk';

/** Whose request: the agent, and the branch and isolation scope of its invocation. */
interface ViewScope {
  readonly agentName: string;
  readonly branch?: string | undefined;
  readonly isolationScope?: unknown;
}

const isolationOf = (event: Event): unknown => (event as { isolationScope?: unknown }).isolationScope;

/** Whether ADK's contents of `scope` include `event` (`shouldIncludeEventInContext`, but its auth and input events). */
function inView(event: Event, scope: ViewScope): boolean {
  if (!event.content?.role || event.content.parts?.[0]?.text === '') return false;
  const { branch } = scope;
  if (branch && event.branch && event.branch !== branch && !branch.startsWith(`${event.branch}.`)) return false;
  const isolation = isolationOf(event);
  return isolation === undefined || isolation === scope.isolationScope;
}

/** The parts of `event` as this agent's request has them: another agent's are text, without calls or responses. */
const ownParts = (event: Event | undefined, scope: ViewScope) =>
  event && (event.author === scope.agentName || event.author === 'user') ? (event.content?.parts ?? []) : [];

/** Index of the latest event of the agent's view of `events` before `end`, or -1. */
function latestInView(events: readonly Event[], end: number, scope: ViewScope): number {
  for (let i = end - 1; i >= 0; i--) if (inView(events[i]!, scope)) return i;
  return -1;
}

/** Whether ADK builds this call's request from the history up to a late answer's function call (ADK's own test). */
export function isLateResponseView(events: readonly Event[] | undefined, scope: ViewScope): boolean {
  const list = events ?? [];
  const latest = latestInView(list, list.length, scope);
  const ids = new Set<string>();
  for (const part of ownParts(list[latest], scope)) if (part.functionResponse?.id) ids.add(part.functionResponse.id);
  // Most calls end here: the latest event holds no response of this agent's.
  if (ids.size === 0) return false;
  const before = list[latestInView(list, latest, scope)];
  return !ownParts(before, scope).some((part) => part.functionCall?.id !== undefined && ids.has(part.functionCall.id));
}
