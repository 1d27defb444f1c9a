/**
 * What one model call's responses have billed. With `streamingMode: SSE`, ADK 2.0's stream aggregator hands the
 * after-model callback several responses of one call that are not partial (flushed text or thoughts, the function
 * call, the usage-only response its `close()` adds), each with the usage of its chunk: the fourteenth outside trial
 * saw every streamed tool step billed twice in `status()`, the call records and telemetry. A call is billed once,
 * up to the largest figures its responses report. Keyed by the call's event actions, which ADK gives every callback
 * of one model call (left-requests.ts). Partial chunks are not billed, but what they report counts toward the call's
 * largest figures: a `BaseLlm` of one's own may report usage on its last partial chunk only, and its calls were in
 * no counter (the forty-fifth outside trial: half the tokens billed).
 */
import type { Context } from '@google/adk';
import { billCall, billIncrease, largestUsage, type BilledUsage, type CallBill } from '../../cost/bill-usage.js';
import type { ModelPrice } from '../../cost/price-table.js';
import { plausibleTokenCount } from '../../state/codec.js';

interface Billed {
  readonly usage: BilledUsage;
  readonly bill: CallBill;
}

export class CallUsage {
  /** Weak: the actions object lives as long as the call's event. */
  private readonly billed = new WeakMap<object, Billed>();
  /** The largest usage the call's partial chunks reported, not billed yet. */
  private readonly partial = new WeakMap<object, BilledUsage>();
  /** The largest prompt count believed for the call's request (usage/provider-feedback.ts `believedCountCeiling`). */
  private readonly ceilings = new WeakMap<object, number>();

  /** Past `ceiling`, a prompt count reported for this call is not billed (as it is not calibrated from). */
  expect(context: Context, ceiling: number | undefined): void {
    if (ceiling === undefined) this.ceilings.delete(context.actions);
    else this.ceilings.set(context.actions, ceiling);
  }

  /** Keeps what a partial chunk of the call reports, for the call's bill when its final response reports none. */
  notePartial(context: Context, usage: BilledUsage): void {
    const believed = this.believed(context, usage);
    if (!believed) return;
    const before = this.partial.get(context.actions);
    this.partial.set(context.actions, before ? largestUsage(before, believed) : believed);
  }

  /**
   * The bill of `usage` for this call: whole on its first report, then only what a later report adds. A response
   * that counts the prompt is billed as it reports, its partial chunks aside: one odd chunk set the bill of every call
   * (the forty-seventh outside trial: $600 for $0.007); partial chunks count only when the response counts nothing.
   */
  billOf(context: Context, reported: BilledUsage | undefined, price: ModelPrice | undefined): CallBill | undefined {
    const seen = this.partial.get(context.actions);
    const own = reported && this.believed(context, reported);
    const usage = own && plausibleTokenCount(own.promptTokenCount, 1) !== undefined ? own : mergedUsage(seen, own);
    if (!usage) return undefined;
    const before = this.billed.get(context.actions);
    const largest = before ? largestUsage(before.usage, usage) : usage;
    const bill = billCall(largest, price);
    if (!bill) return undefined;
    this.billed.set(context.actions, { usage: largest, bill });
    return before ? billIncrease(bill, before.bill) : bill;
  }

  /** `usage` without its prompt counts when they are past the call's ceiling; undefined when nothing is left. */
  private believed(context: Context, usage: BilledUsage): BilledUsage | undefined {
    const ceiling = this.ceilings.get(context.actions);
    const prompt = usage.promptTokenCount;
    if (ceiling === undefined || prompt === undefined || !(prompt > ceiling)) return usage;
    return { ...usage, promptTokenCount: undefined, cachedContentTokenCount: undefined };
  }
}

function mergedUsage(a: BilledUsage | undefined, b: BilledUsage | undefined): BilledUsage | undefined {
  return a && b ? largestUsage(a, b) : (a ?? b);
}
