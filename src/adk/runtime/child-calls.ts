/**
 * An `AgentTool` call's child records on the way to the event that answers the call
 * (records/child-calls.ts): gathered while the child runs (agent-tool-caller.ts), kept here when
 * its run ends, and put on the function response event by the calling app's plugin before the
 * runner stores it. Kept on `globalThis` like the caller registry, so two copies of the package
 * meet; bounded, since an answer that never comes (the tool failed, the turn was abandoned) leaves
 * its entry behind.
 */
import type { Context, Event } from '@google/adk';
import { CHILD_CALLS_METADATA_KEY, MAX_CHILD_CALLS, type ChildCall } from '../../records/child-calls.js';
import { hasGuardBrand } from './guard-brand.js';

const FINISHED = Symbol.for('adk-context-guard.child-calls.v1');

/** Finished runs kept at most, oldest dropped first. */
const MAX_FINISHED = 1_000;

function finished(): Map<string, readonly ChildCall[]> {
  const holder = globalThis as { [FINISHED]?: Map<string, readonly ChildCall[]> };
  return (holder[FINISHED] ??= new Map<string, readonly ChildCall[]>());
}

const keyOf = (invocationId: string, functionCallId: string): string => `${invocationId}\u0000${functionCallId}`;

/**
 * Keeps the records of a finished child run for the answer of its call, if it made any and a guard's plugin will
 * see that answer: ADK runs an `AgentTool` child's Runner without plugins, so a call made inside a child (its
 * records reach the outermost caller's answer as well), or by an agent the guard is attached to without a plugin,
 * is answered unseen, and its entry would stay for good (review 45).
 */
export function finishChildRun(toolContext: Context, caller: { readonly childCalls?: ChildCall[] | undefined }): void {
  const calls = caller.childCalls;
  const callId = toolContext.functionCallId;
  if (!calls || calls.length === 0 || callId === undefined || !guardSeesEvents(toolContext)) return;
  const runs = finished();
  runs.set(keyOf(toolContext.invocationId, callId), calls.slice(0, MAX_CHILD_CALLS));
  if (runs.size > MAX_FINISHED) runs.delete(runs.keys().next().value as string);
}

/** Whether a guard is among the plugins of the Runner the call runs in (`plugins` is private in ADK's types). */
function guardSeesEvents(toolContext: Context): boolean {
  const plugins = (toolContext.invocationContext.pluginManager as unknown as { plugins?: unknown }).plugins;
  return plugins instanceof Set && [...(plugins as Set<unknown>)].some(hasGuardBrand);
}

/** Puts the records of the child runs an event answers on it, in place, before the runner stores it. */
export function attachChildCalls(event: Event): void {
  const runs = finished();
  if (runs.size === 0 || event.partial === true) return;
  const calls: ChildCall[] = [];
  for (const part of event.content?.parts ?? []) {
    const id = part.functionResponse?.id;
    const key = id === undefined ? undefined : keyOf(event.invocationId, id);
    const run = key === undefined ? undefined : runs.get(key);
    if (key === undefined || !run) continue;
    runs.delete(key);
    calls.push(...run);
  }
  if (calls.length > 0)
    event.customMetadata = {
      ...(event.customMetadata ?? {}),
      [CHILD_CALLS_METADATA_KEY]: calls.slice(0, MAX_CHILD_CALLS),
    };
}
