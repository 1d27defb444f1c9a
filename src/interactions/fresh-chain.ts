/**
 * When a call in Interactions mode starts a fresh server-side chain. The server holds every content
 * since its chain began; the guard's view (stored summary, mask, what follows) equals that chain as
 * long as every change of the view starts a new chain. So a call that continues a chain starts a
 * fresh one exactly when it changes what the model is shown (a summary, a masking, a cut), or when
 * the last call was rejected as too long (its chain is over the window, whatever this call decides).
 */
import type { InteractionsCall } from './interactions-mode.js';

/** What the decision did to the request (plain figures of `GuardRequestResult`). */
interface ChainChange {
  readonly compacted: boolean;
  readonly masked: boolean;
  readonly shrunk: boolean;
  /** The last call was rejected as too long (the usage record's `forceCompaction`). */
  readonly rejectedBefore: boolean;
}

/** True when the request must be sent whole, without `previousInteractionId`, to start a new chain. */
export function startsFreshChain(call: InteractionsCall | undefined, change: ChainChange): boolean {
  if (!call?.chained) return false;
  return change.compacted || change.masked || change.shrunk || change.rejectedBefore;
}
