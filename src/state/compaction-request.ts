/**
 * The state delta of a compaction the application asks for (`requestCompaction`): the agent's
 * usage record forces one, and the request marks the trigger as manual.
 */
import { decodeUsageRecord, encodeRecord } from './guard-state.js';
import { stateKeysFor } from './keys.js';

export function compactionRequestDelta(
  state: Readonly<Record<string, unknown>>,
  agentName: string,
  now: number,
): Record<string, unknown> {
  const keys = stateKeysFor(agentName);
  const usage = decodeUsageRecord(state[keys.usage]);
  return { [keys.usage]: encodeRecord({ ...usage, forceCompaction: true }), [keys.compactionRequest]: now };
}
