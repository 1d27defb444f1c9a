/**
 * The counts of a guarded call (compaction, masking, over the limit...) are decided before the
 * model is called, and ride on the call's response event or error event (records/call-record.ts):
 * kept here in between, by session, invocation and agent, as the compaction reporter keeps its
 * record. An agent's calls within one invocation follow each other, so the key names one call.
 */
import type { Context } from '@google/adk';
import { addCounts, type CallCounts } from '../../records/call-record.js';
import { callScopeOfContext } from '../runtime/session-scope.js';
import { BoundedMap } from '../../collections/bounded-map.js';

/** Calls awaiting their model response, at most: an aborted call gets no callback after the model. */
const MAX_PENDING_CALLS = 1_000;

export class PendingCalls {
  private readonly pending = new BoundedMap<string, CallCounts>(MAX_PENDING_CALLS);

  /**
   * Keeps a call's counts for its response. Counts still waiting (a callback after the guard's answered the call
   * itself, and no plugin event hook took them: an agent the guard is attached to) go with them, on the next
   * call's event.
   */
  stash(context: Context, counts: CallCounts): void {
    const key = callScopeOfContext(context);
    const waiting = this.pending.get(key);
    this.pending.set(key, waiting ? addCounts(waiting, counts) : counts);
  }

  /** The counts of the call of this scope (runtime/session-scope.ts `callScopeOfContext`), once. */
  take(callScope: string): CallCounts | undefined {
    return this.pending.take(callScope);
  }
}
