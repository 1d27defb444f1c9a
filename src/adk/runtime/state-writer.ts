/**
 * The one writer of the guard's records in session state: the change a call's decision carries
 * (summary, mask, usage record, the compaction request's mark), the audit record of the last
 * compaction, and every later update of the usage record (after the model's answer or
 * rejection), each a pure function of the stored record (src/usage/).
 */
import type { StateChange } from '../../pipeline/contract.js';
import type { CompactionRecord } from '../../records/compaction-record.js';
import { encodeRecord } from '../../state/codec.js';
import { stateKeysFor } from '../../state/keys.js';
import { decodeUsageRecord, type UsageRecord } from '../../usage/stored-usage.js';

/** Session state as ADK's `Context.state` offers it, or a delta being built. */
interface StateAccess {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
}

/** `servedRequest`: the id of the `requestCompaction` the call read, recorded as handled once it is served. */
export function writeStateChange(
  state: StateAccess,
  agentName: string,
  change: StateChange,
  servedRequest?: string,
): void {
  const keys = stateKeysFor(agentName);
  if (change.summary !== undefined)
    state.set(keys.summary, change.summary === null ? null : encodeRecord(change.summary));
  if (change.mask !== undefined) state.set(keys.mask, change.mask === null ? null : encodeRecord(change.mask));
  writeUsage(state, agentName, change.usage);
  // Only the request read is marked handled: the mark is not cleared, so a request written since stays pending.
  if (change.compactionRequestServed && servedRequest !== undefined)
    state.set(keys.compactionRequestHandled, servedRequest);
}

export function writeLastCompaction(state: StateAccess, agentName: string, record: CompactionRecord): void {
  state.set(stateKeysFor(agentName).lastCompaction, encodeRecord(record));
}

/** The stored usage record (out-of-range fields at their defaults). */
export function readUsage(state: StateAccess, agentName: string): UsageRecord {
  return decodeUsageRecord(state.get(stateKeysFor(agentName).usage));
}

export function writeUsage(state: StateAccess, agentName: string, usage: UsageRecord): void {
  state.set(stateKeysFor(agentName).usage, encodeRecord(usage));
}

/** Applies `update` to the stored usage record; writes only when it changed something. */
export function updateUsage(state: StateAccess, agentName: string, update: (usage: UsageRecord) => UsageRecord): void {
  const stored = readUsage(state, agentName);
  const next = update(stored);
  if (next !== stored) writeUsage(state, agentName, next);
}

/**
 * The state delta of a compaction the application asks for (`requestCompaction`): its mark alone, a
 * new id, which makes the next call compact with a manual trigger (trigger/compaction-request.ts). Not
 * the usage record: written from the caller's copy of the session, it would undo what a call in flight
 * wrote there (counts, calibration).
 */
export function compactionRequestDelta(agentName: string, id: string): Record<string, unknown> {
  return { [stateKeysFor(agentName).compactionRequest]: id };
}
