/**
 * The call records of an `AgentTool` child, carried on the calling agent's function response event.
 *
 * ADK runs the child in a session of its own (app: the child's name), so its per-call records
 * (records/call-record.ts) are events of that session, and the calling session holds only the
 * child's usage record, which ADK copies into its state after each run. Two runs at once (two
 * turns of one session) each copy the record they started from, counted on: the later overwrites
 * the earlier, and the caller's `status()` undercounted the child (the forty-ninth outside trial:
 * 44 of 58 calls). Each run's records, on the event that answers its call, sum exactly.
 */
import { isPlainObject } from '../config/plain-object.js';

/** The `customMetadata` key of a function response event with its child runs' call records. */
export const CHILD_CALLS_METADATA_KEY = 'context_guard_child_calls';

/** More records than this on one event are left off (status then counts the child from its usage record). */
export const MAX_CHILD_CALLS = 1_000;

/** One model call of a child (or of a child of it): its invocation and its encoded call record. */
export interface ChildCall {
  readonly invocationId: string;
  readonly record: Readonly<Record<string, unknown>>;
}

/** The child calls in `metadata`, read as an event of each (anything unreadable is left out). */
export function childCallsIn(metadata: Readonly<Record<string, unknown>>): ChildCall[] {
  const calls = metadata[CHILD_CALLS_METADATA_KEY];
  if (!Array.isArray(calls)) return [];
  const out: ChildCall[] = [];
  for (const call of calls.slice(0, MAX_CHILD_CALLS) as unknown[]) {
    if (!isPlainObject(call)) continue;
    const { invocationId, record } = call;
    if (typeof invocationId === 'string' && isPlainObject(record)) out.push({ invocationId, record });
  }
  return out;
}
