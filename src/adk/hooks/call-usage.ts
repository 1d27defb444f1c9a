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
  /** Keeps what a partial chunk of the call reports, for the call's bill when its final response counts no prompt. */
  notePartial(context: Context, usage: BilledUsage): void {
    const before = this.partial.get(context.actions);
    this.partial.set(context.actions, before ? largestUsage(before, usage) : usage);
  }

  /**
   * The bill of `usage` for this call: whole on its first report, then only what a later report adds. A response
   * that counts the prompt is billed as it reports, its partial chunks aside: one odd chunk set the bill of every call
   * (the forty-seventh outside trial: $600 for $0.007); partial chunks count only when the response counts nothing.
   */
  billOf(context: Context, reported: BilledUsage | undefined, price: ModelPrice | undefined): CallBill | undefined {
    const usage = withPartials(this.partial.get(context.actions), reported);
    if (!usage) return undefined;
    const before = this.billed.get(context.actions);
    const largest = before ? largestUsage(before.usage, usage) : usage;
    const bill = billCall(largest, price);
    if (!bill) return undefined;
    this.billed.set(context.actions, { usage: largest, bill });
    return before ? billIncrease(bill, before.bill) : bill;
  }
}

/**
 * A response's usage with what its call's partial chunks reported: when it counts the prompt, its own figures, the
 * chunks' only for the output figures it leaves out (an odd chunk's count never sets the bill: review 40 saw one
 * chunk's output of 99,999,999 billed); when it counts no prompt, the largest of each figure.
 */
function withPartials(partials: BilledUsage | undefined, reported: BilledUsage | undefined): BilledUsage | undefined {
  if (!partials || !reported) return reported ?? partials;
  if (plausibleTokenCount(reported.promptTokenCount, 1) === undefined) return largestUsage(partials, reported);
  return {
    ...reported,
    candidatesTokenCount: reported.candidatesTokenCount ?? partials.candidatesTokenCount,
    thoughtsTokenCount: reported.thoughtsTokenCount ?? partials.thoughtsTokenCount,
  };
}
