/**
 * The counts of a guarded call (compaction, masking, over the limit...) are decided before the
 * model is called, and ride on the call's response event or error event (records/call-record.ts):
 * kept here in between, by session, invocation and agent, as the compaction reporter keeps its
 * record. An agent's calls within one invocation follow each other, so the key names one call.
 */
import type { Context } from '@google/adk';
import { addCounts, type CallCounts } from '../../records/call-record.js';
import { scopeOfContext } from '../runtime/session-scope.js';

/** Calls awaiting their model response, at most: an aborted call gets no callback after the model. */
const MAX_PENDING_CALLS = 1_000;

export class PendingCalls {
  private readonly pending = new Map<string, CallCounts>();

  /**
   * Keeps a call's counts for its response. Counts still waiting (a call another plugin answered
   * itself, so the after-model callback never ran) go with them, on the next call's event.
   */
  stash(context: Context, counts: CallCounts): void {
    const key = pendingKey(context);
    const waiting = this.pending.get(key);
    this.pending.delete(key);
    this.pending.set(key, waiting ? addCounts(waiting, counts) : counts);
    while (this.pending.size > MAX_PENDING_CALLS) {
      const oldest = this.pending.keys().next().value;
      if (oldest === undefined) break;
      this.pending.delete(oldest);
    }
  }

  /** The counts of this call, once. */
  take(context: Context): CallCounts | undefined {
    const key = pendingKey(context);
    const counts = this.pending.get(key);
    if (counts) this.pending.delete(key);
    return counts;
  }
}

function pendingKey(context: Context): string {
  return `${scopeOfContext(context)}\u0000${context.invocationId}\u0000${context.agentName}`;
}
