/**
 * Counting a background summary thrown away (`droppedPreparations`), once: where a call settles the claim in state
 * without applying its preparation (drops it, stores another summary, or claims a new preparation). Counted by the
 * maker when it found it invalid, one waste was counted twice across two replicas, or never, when another replica
 * replaced the claim before the maker looked (reviews 30 and 31). A preparation whose claim never reached state (its
 * step failed before the event was stored) is not counted.
 */
import type { GuardRequestResult } from './contract.js';
import { PREPARED_APPLIED } from '../preparation/prepared-summary.js';

/** What a call did with the claim in state, as plain data. */
export interface ClaimSettling {
  /** A claim of a preparation was in state when the call began. */
  readonly claimed: boolean;
  /** The call applied that preparation's summary. */
  readonly applied: boolean;
  /** Why the decision dropped the prepared summary it was handed, if it did. */
  readonly dropped: string | undefined;
  /** The call stored a summary of its own. */
  readonly stored: boolean;
  /** The call claims a new preparation. */
  readonly preparing: boolean;
}

/** Why this call wastes the claimed preparation, or undefined when it does not. */
export function wastedPreparation(settling: ClaimSettling): string | undefined {
  if (!settling.claimed || settling.applied || settling.dropped === PREPARED_APPLIED) return undefined;
  if (settling.dropped !== undefined) return settling.dropped;
  if (settling.stored) return 'another summary was stored before it was applied';
  return settling.preparing ? 'a new preparation replaced it' : undefined;
}

/** `result` with one background summary counted as thrown away, in the usage record and the call's counts. */
export function withWastedPreparation(result: GuardRequestResult): GuardRequestResult {
  const { usage } = result.state;
  return {
    ...result,
    state: { ...result.state, usage: { ...usage, droppedPreparations: usage.droppedPreparations + 1 } },
    counts: { ...result.counts, droppedPreparations: result.counts.droppedPreparations + 1 },
  };
}
