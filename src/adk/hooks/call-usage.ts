/**
 * What one model call's responses have billed. With `streamingMode: SSE`, ADK 2.0's stream aggregator hands the
 * after-model callback several responses of one call that are not partial (flushed text or thoughts, the function
 * call, the usage-only response its `close()` adds), each with the usage of its chunk: the fourteenth outside trial
 * saw every streamed tool step billed twice in `status()`, the call records and telemetry. A call is billed once,
 * up to the largest figures its responses report. Keyed by the call's event actions, which ADK gives every callback
 * of one model call (left-requests.ts).
 */
import type { Context } from '@google/adk';
import { billCall, billIncrease, largestUsage, type BilledUsage, type CallBill } from '../../cost/bill-usage.js';
import type { ModelPrice } from '../../cost/price-table.js';

interface Billed {
  readonly usage: BilledUsage;
  readonly bill: CallBill;
}

export class CallUsage {
  /** Weak: the actions object lives as long as the call's event. */
  private readonly billed = new WeakMap<object, Billed>();

  /** The bill of `usage` for this call: whole on its first report, then only what a later report adds. */
  billOf(context: Context, usage: BilledUsage | undefined, price: ModelPrice | undefined): CallBill | undefined {
    if (!usage) return undefined;
    const before = this.billed.get(context.actions);
    const largest = before ? largestUsage(before.usage, usage) : usage;
    const bill = billCall(largest, price);
    if (!bill) return undefined;
    this.billed.set(context.actions, { usage: largest, bill });
    return before ? billIncrease(bill, before.bill) : bill;
  }
}
