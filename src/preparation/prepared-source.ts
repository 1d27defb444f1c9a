/**
 * Background compaction across replicas, the decision of where a prepared summary comes from. The
 * claim in session state names the preparation in force, whichever replica started it: this
 * process's own (applied from memory), one whose summary is already in state, or one still in
 * flight elsewhere (waited for, for a bounded time, at the threshold). Pure functions.
 */
import type { PreparationClaim } from './prepared-record.js';

export type PreparedSource = 'none' | 'local' | 'stored' | 'remote';

/**
 * `claim`: the claim in state; `storedId`: the id of the prepared summary in state; `localId`: the
 * id of this process's preparation, if any (`null`: one with no claim, made before claims existed).
 */
export function preparedSource(
  claim: PreparationClaim | undefined,
  storedId: string | undefined,
  localId: string | undefined | null,
): PreparedSource {
  // No claim in state: only a preparation of this process whose claim was never persisted (a step that failed before
  // its event was stored) can apply; one of another replica was applied or dropped there.
  if (claim === undefined) return localId === undefined ? 'none' : 'local';
  if (localId === claim.id) return 'local';
  if (storedId === claim.id) return 'stored';
  return 'remote';
}

/**
 * Until when a call at the threshold waits for a summary another replica is preparing: `waitMs` from
 * now, or not at all when the claim is older than the summarizer's timeout plus that wait (the
 * replica that made it is gone: a live one would have stored its summary, or its fallback, by then).
 */
export function remoteWaitDeadline(
  claim: PreparationClaim,
  now: number,
  waitMs: number,
  summarizerTimeoutMs: number,
): number {
  return now - claim.startedAt > summarizerTimeoutMs + waitMs ? now : now + waitMs;
}
