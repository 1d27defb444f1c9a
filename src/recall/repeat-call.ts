/**
 * No repeated fetch: a call of a tool declared to reuse its result, with the same arguments as an
 * earlier call whose result the model no longer sees whole (offloaded to an artifact, or masked or
 * summarized away), is answered from that stored result instead of running the tool again, unless
 * a tool that may change something was called since (the seventeenth outside trial: a cart read
 * again after an item was added was answered with the cart before). Pure: it reads the session's
 * events (the original result event, never changed), so any replica answers alike.
 */
import { isVisibleTo, type SearchableEvent } from './search-events.js';
import { OFFLOAD_ARTIFACT_PREFIX, OFFLOAD_HANDLE_KEY } from '../offload/artifact-handle.js';

/** Key of the mark a stored answer carries; a result with it is never itself a stored result to replay. */
export const STORED_ANSWER_KEY = 'context_guard_stored_result';

/** The parts of an ADK event this reads. */
export interface RepeatEvent extends SearchableEvent {
  readonly actions?:
    | {
        readonly stateDelta?: Readonly<Record<string, unknown>> | undefined;
        readonly artifactDelta?: Readonly<Record<string, unknown>> | undefined;
      }
    | undefined;
}

/** Arguments as sorted-keys JSON: `{b:1,a:2}` and `{a:2,b:1}` are the same call. */
export function canonicalArgs(args: unknown): string {
  return JSON.stringify(sortedKeys(args, 0));
}

function sortedKeys(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object' || depth > 64) return value;
  if (Array.isArray(value)) return value.map((item) => sortedKeys(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort())
    out[key] = sortedKeys((value as Record<string, unknown>)[key], depth + 1);
  return out;
}

interface RepeatQuery {
  readonly agentName: string;
  readonly toolName: string;
  readonly args: unknown;
  readonly branch?: string | undefined;
  readonly invocationId: string;
  /** The agent's state keys whose writing hides earlier turns' results: its mask and its summary. */
  readonly hidingKeys: readonly string[];
  /** Whether a call of the tool named so changes nothing: a call of any other since the result makes it stale. */
  readonly isReadOnly: (toolName: string) => boolean;
}

interface StoredAnswer {
  /** The original result, as ADK stored it. */
  readonly response: Record<string, unknown>;
  readonly eventId: string;
  readonly timestamp: number;
  /** Why the model no longer has it: offloaded to an artifact, or masked (or summarized) away. */
  readonly hiddenBy: 'offload' | 'mask';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Index of the last event that wrote one of `keys` with a value, and its invocation: every tool
 * result of an earlier turn is masked or summarized from then on (both cover completed turns).
 */
function lastHiding(events: readonly RepeatEvent[], keys: readonly string[]): { index: number; invocation?: string } {
  for (let index = events.length - 1; index >= 0; index--) {
    const delta = events[index]?.actions?.stateDelta;
    if (delta && keys.some((key) => delta[key] !== undefined && delta[key] !== null))
      return { index, invocation: events[index]?.invocationId };
  }
  return { index: -1 };
}

/** Call ids of the agent's calls of `toolName` with these exact (canonical) arguments. */
function matchingCallIds(events: readonly RepeatEvent[], query: RepeatQuery, wanted: string): Set<string> {
  const ids = new Set<string>();
  for (const event of events) {
    if (event.author !== query.agentName || !isVisibleTo(event, query.branch)) continue;
    for (const part of event.content?.parts ?? []) {
      const call = part.functionCall;
      if (call?.id && call.name === query.toolName && canonicalArgs(call.args ?? {}) === wanted) ids.add(call.id);
    }
  }
  return ids;
}

/**
 * The latest stored result of the same call that the model no longer sees whole, or `undefined`:
 * then the tool runs as usual. A result already answered from storage is not one (its original is).
 */
export function findStoredAnswer(events: readonly RepeatEvent[], query: RepeatQuery): StoredAnswer | undefined {
  const ids = matchingCallIds(events, query, canonicalArgs(query.args ?? {}));
  if (ids.size === 0) return undefined;
  const hiding = lastHiding(events, query.hidingKeys);
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index] as RepeatEvent;
    if (!isVisibleTo(event, query.branch)) continue;
    for (const part of event.content?.parts ?? []) {
      const result = part.functionResponse;
      if (!result?.id || !ids.has(result.id) || !isRecord(result.response) || STORED_ANSWER_KEY in result.response)
        continue;
      const offloaded = offloadedIn(event, result.response);
      const masked =
        index < hiding.index && event.invocationId !== hiding.invocation && event.invocationId !== query.invocationId;
      if ((!offloaded && !masked) || changedSince(events, index, query.isReadOnly)) return undefined;
      return {
        response: result.response,
        eventId: event.id,
        timestamp: event.timestamp,
        hiddenBy: offloaded ? 'offload' : 'mask',
      };
    }
  }
  return undefined;
}

/**
 * Whether the result is one the guard offloaded: its handle names an artifact of the guard's that this very event
 * saved (ADK records the save in the result event's `artifactDelta`, on every replica). A key of the same name in a
 * tool's own output is not one (the twenty-third outside trial: it froze a read-only tool's answer at its first).
 */
function offloadedIn(event: RepeatEvent, response: Record<string, unknown>): boolean {
  const handle = response[OFFLOAD_HANDLE_KEY];
  const name = isRecord(handle) ? handle['name'] : undefined;
  return (
    typeof name === 'string' &&
    name.startsWith(OFFLOAD_ARTIFACT_PREFIX) &&
    event.actions?.artifactDelta?.[name] !== undefined
  );
}

/**
 * Whether a tool that may change something was called, or answered, after the event at `index` (the result may be
 * stale). Its answer counts too: a confirmed or long-running tool's call comes before the read and its effect after
 * it, with the user's confirmation or the job's final answer (the twenty-first outside trial: a document published
 * after its read was answered with the draft).
 */
function changedSince(
  events: readonly RepeatEvent[],
  index: number,
  isReadOnly: (toolName: string) => boolean,
): boolean {
  for (let i = index + 1; i < events.length; i++)
    for (const part of events[i]?.content?.parts ?? []) {
      const name = part.functionCall?.name ?? part.functionResponse?.name;
      if (name !== undefined && !isReadOnly(name)) return true;
    }
  return false;
}

/** The stored result as the answer of the repeated call, marked with its age (the original result is not changed). */
export function storedAnswerResult(answer: StoredAnswer, now: number): Record<string, unknown> {
  const ageSeconds = Math.max(0, Math.round((now - answer.timestamp) / 1000));
  return {
    ...answer.response,
    [STORED_ANSWER_KEY]: {
      note: `Not run again: the result of the same call ${ageSeconds} s ago, from the session.`,
      age_seconds: ageSeconds,
      event_id: answer.eventId,
    },
  };
}
