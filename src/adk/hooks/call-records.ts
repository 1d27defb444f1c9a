/**
 * The records of one model call, taken from where they waited for its outcome: the compaction
 * record and the call's own record (what was decided, the bill, the summarizer's part, a
 * rejection), as the `customMetadata` ADK persists on the event. Shared by the answer
 * (record-response.ts) and the failed call (model-error-event.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Context, Event, InvocationContext } from '@google/adk';
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
import { callScopeOfContext, callScopeOfEvent } from '../runtime/session-scope.js';
import { noteChildCall } from '../runtime/agent-tool-caller.js';
import type { CompactionReporter } from './compaction-reporter.js';
import type { PendingCalls } from './pending-calls.js';

/** Where a call's records wait for its outcome. */
interface WaitingRecords {
  readonly reporter: CompactionReporter;
  readonly calls: PendingCalls;
}

/** `customMetadata` with the call's records, or `undefined` when it has none. */
export function takeCallRecords(
  context: Context,
  from: WaitingRecords,
  bill: CallBill | undefined,
  rejected: boolean,
): Record<string, unknown> | undefined {
  return takeRecordsOf(callScopeOfContext(context), context.invocationId, context.agentName, from, bill, rejected);
}

/**
 * The records of the call an event answers when they are still waiting: a callback after the guard's hook
 * (an agent's own, another plugin's) answered the call itself, so no after-model hook took them. Put on the
 * event in place before the runner stores it; a partial event is not stored, and an event of a call whose
 * hook took its records finds none.
 */
export function settleAnsweredElsewhere(invocation: InvocationContext, event: Event, from: WaitingRecords): void {
  if (event.partial === true || event.author === undefined || event.author === 'user') return;
  const scope = callScopeOfEvent(invocation, event);
  const records = takeRecordsOf(scope, event.invocationId, event.author, from, undefined, false);
  if (records) event.customMetadata = { ...(event.customMetadata ?? {}), ...records };
}

function takeRecordsOf(
  scope: string,
  invocationId: string,
  agentName: string,
  from: WaitingRecords,
  bill: CallBill | undefined,
  rejected: boolean,
): Record<string, unknown> | undefined {
  const pending = from.reporter.take(scope);
  const compaction = pending?.record;
  const taken = from.calls.take(scope);
  const counts = rejected ? addCounts(taken ?? NO_COUNTS, { ...NO_COUNTS, rejectedCalls: 1 }) : taken;
  const summarizer = sumBills(compaction && recordedSummarizerBill(compaction), pending?.discardedBill);
  const call = buildCallRecord(randomUUID(), agentName, counts, bill, summarizer, pending?.preparationId);
  if (!compaction && !call) return undefined;
  const encoded = call && encodeCallRecord(call);
  // Inside an `AgentTool` child: the calling agent's answer carries it too (records/child-calls.ts).
  if (encoded) noteChildCall(invocationId, encoded);
  return {
    ...(compaction ? { [COMPACTION_METADATA_KEY]: compaction } : {}),
    ...(encoded ? { [CALL_METADATA_KEY]: encoded } : {}),
  };
}
