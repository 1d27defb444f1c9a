/**
 * Records of another process. ADK 2.0.0's A2A client (`RemoteA2AAgent`) makes each event of a remote
 * agent's answer with the `customMetadata` the server's event had (`adk_custom_metadata`) and adds
 * `a2a:`-prefixed keys (`a2a:response`, `a2a:task_id`, ...; `a2a_remote_agent_run_processor.js`). A call
 * record on such an event is the remote server's: its calls, billed in its process, not this one's.
 * Replicas of one app write their events themselves, never through A2A, so they keep counting each other.
 */
import { CALL_METADATA_KEY } from './call-record.js';
import { COMPACTION_METADATA_KEY } from './compaction-record.js';
import { CHILD_CALLS_METADATA_KEY } from './child-calls.js';

/** The prefix of the keys ADK's A2A client adds to an event it made from a remote agent's answer. */
const A2A_CLIENT_KEY_PREFIX = 'a2a:';

/** Whether `customMetadata` is of an event ADK's A2A client made from a remote agent's answer. */
export function cameThroughA2a(customMetadata: Readonly<Record<string, unknown>> | undefined): boolean {
  return (
    customMetadata !== undefined && Object.keys(customMetadata).some((key) => key.startsWith(A2A_CLIENT_KEY_PREFIX))
  );
}

const GUARD_KEYS: readonly string[] = [CALL_METADATA_KEY, COMPACTION_METADATA_KEY, CHILD_CALLS_METADATA_KEY];

/** The guard's records in `customMetadata` apart from the rest (`undefined` when there are none). */
export function splitGuardRecords(
  customMetadata: Readonly<Record<string, unknown>> | undefined,
): { records: Record<string, unknown>; rest: Record<string, unknown> | undefined } | undefined {
  if (customMetadata === undefined || !GUARD_KEYS.some((key) => Object.hasOwn(customMetadata, key))) return undefined;
  const records: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(customMetadata)) (GUARD_KEYS.includes(key) ? records : rest)[key] = value;
  return { records, rest: Object.keys(rest).length > 0 ? rest : undefined };
}
