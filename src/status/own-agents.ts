/**
 * The agents a session's `status()` lists: those with calls counted on its events, and those whose usage record was
 * written in this session or reached it from an `AgentTool` child it called. ADK runs such a child in a session of
 * its own (app: the child's name) seeded with a copy of the caller's state, so the caller's agents' records sit in
 * it, frozen at that call (the forty-fourth outside trial saw the coordinator listed at 6 calls where it had made
 * 208, counted twice by a dashboard summing every session); and it copies the child's state back to the caller, the
 * records of the child's own agents with it. A record names the app it was written under (`app`) and, for a child's
 * agent, the app that called it (`calledFrom`): listed are the records of this session's app and, transitively, those
 * called from an app listed (a child's sub-agents, a child's child), never an ancestor's (review 36: a caller's app
 * named like its root agent, and a child's sub-agents, each went the wrong way under a rule on names alone).
 */
import { decodeUsageRecord } from '../usage/stored-usage.js';
import { stateKeysFor } from '../state/keys.js';
import { guardedAgents } from './context-status.js';

export function ownAgents(
  state: Readonly<Record<string, unknown>>,
  appName: string | undefined,
  counted: Iterable<string>,
): string[] {
  const names = guardedAgents(state);
  if (appName === undefined) return [...new Set([...names, ...counted])].sort();
  const marks = new Map(names.map((name) => [name, decodeUsageRecord(state[stateKeysFor(name).usage])]));
  const apps = new Set([appName]);
  const listed = new Set<string>();
  for (let grew = true; grew;) {
    grew = false;
    for (const [name, { app, calledFrom }] of marks) {
      if (listed.has(name)) continue;
      if (app !== undefined && !apps.has(app) && (calledFrom === undefined || !apps.has(calledFrom))) continue;
      listed.add(name);
      if (app !== undefined) apps.add(app);
      grew = true;
    }
  }
  return [...new Set([...listed, ...counted])].sort();
}
