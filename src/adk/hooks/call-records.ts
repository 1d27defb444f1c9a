/**
 * The records of one model call, taken from where they waited for its outcome: the compaction
 * record and the call's own record (what was decided, the bill, the summarizer's part, a
 * rejection), as the `customMetadata` ADK persists on the event. Shared by the answer
 * (record-response.ts) and the failed call (model-error-event.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Context } from '@google/adk';
import type { CallBill } from '../../cost/bill-usage.js';
import { recordedSummarizerBill, sumBills } from '../../cost/bill-summary.js';
import {
  addCounts,
  buildCallRecord,
  CALL_METADATA_KEY,
  encodeCallRecord,
  NO_COUNTS,
} from '../../records/call-record.js';
import { COMPACTION_METADATA_KEY } from '../../records/compaction-record.js';
import type { CompactionReporter } from './compaction-reporter.js';
import type { PendingCalls } from './pending-calls.js';

/** `customMetadata` with the call's records, or `undefined` when it has none. */
export function takeCallRecords(
  context: Context,
  from: { readonly reporter: CompactionReporter; readonly calls: PendingCalls },
  bill: CallBill | undefined,
  rejected: boolean,
): Record<string, unknown> | undefined {
  const pending = from.reporter.take(context);
  const compaction = pending?.record;
  const taken = from.calls.take(context);
  const counts = rejected ? addCounts(taken ?? NO_COUNTS, { ...NO_COUNTS, rejectedCalls: 1 }) : taken;
  const summarizer = sumBills(compaction && recordedSummarizerBill(compaction), pending?.discardedBill);
  const call = buildCallRecord(randomUUID(), context.agentName, counts, bill, summarizer, pending?.preparationId);
  if (!compaction && !call) return undefined;
  return {
    ...(compaction ? { [COMPACTION_METADATA_KEY]: compaction } : {}),
    ...(call ? { [CALL_METADATA_KEY]: encodeCallRecord(call) } : {}),
  };
}
