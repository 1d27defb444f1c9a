/**
 * The agents a session's `status()` lists: those with calls counted on its events, and those whose usage record
 * was written by this session's app. ADK's `AgentTool` runs a child in a session of its own (app: the child's name)
 * seeded with a copy of the caller's state, so the caller's agents' records sit in it, frozen at that call: the
 * forty-fourth outside trial saw a child's session list the coordinator at 6 calls where it had made 208, counted
 * twice by a dashboard summing every session. A record names the app it was written under (`app`, usage/marks.ts);
 * one under another app is skipped, except an `AgentTool` child's own record copied back to its caller (its app is
 * its own name), which is how the caller's session shows the child.
 */
import { decodeUsageRecord } from '../usage/stored-usage.js';
import { stateKeysFor } from '../state/keys.js';
import { guardedAgents } from './context-status.js';

export function ownAgents(
  state: Readonly<Record<string, unknown>>,
  appName: string | undefined,
  counted: Iterable<string>,
): string[] {
  const fromState = guardedAgents(state).filter((name) => {
    if (appName === undefined) return true;
    const app = decodeUsageRecord(state[stateKeysFor(name).usage]).app;
    return app === undefined || app === appName || app === name;
  });
  return [...new Set([...fromState, ...counted])].sort();
}
