/**
 * The per-call records of a session's events, summed per agent: the counts of `status()` that
 * concurrent turns and replicas cannot overwrite (records/call-record.ts). Linear in the events;
 * only `status()` calls it, never the model-call path.
 */
import { isPlainObject } from '../config/plain-object.js';
import { CALL_METADATA_KEY, COUNT_KEYS, decodeCallRecord, type RecordedBill, type CallCounts } from './call-record.js';

/** What summing reads of an event (an ADK `Event` has these). */
export interface CountedEvent {
  readonly invocationId?: string | undefined;
  readonly partial?: boolean | undefined;
  readonly customMetadata?: Readonly<Record<string, unknown>> | undefined;
}

/** Summed over the agent's calls (the counts and the bill of records/call-record.ts). */
export interface CallTotals extends CallCounts, RecordedBill {
  /** Distinct invocations with a record of the agent. */
  readonly invocations: number;
}

type Summed = { -readonly [key in keyof CallTotals]: number };

const SUMMED_KEYS = [
  ...COUNT_KEYS,
  'promptTokens',
  'cachedPromptTokens',
  'outputTokens',
  'costUsd',
  'unpricedCalls',
  'summarizerCalls',
  'summarizerPromptTokens',
  'summarizerCachedPromptTokens',
  'summarizerOutputTokens',
  'summarizerCostUsd',
  'unpricedSummarizerCalls',
] as const satisfies readonly Exclude<keyof CallTotals, 'invocations'>[];

function emptyTotals(): Summed {
  const totals = { invocations: 0 } as Summed;
  for (const key of SUMMED_KEYS) totals[key] = 0;
  return totals;
}

/**
 * Totals per agent name of the records on `events`. Partial (streamed) events are skipped (never
 * stored, and they repeat the final response's usage), and so is a record whose id was seen
 * before (a copy of an event appended again). Anything that is not an array counts nothing.
 */
export function sumCallRecords(events: unknown): Map<string, CallTotals> {
  const totals = new Map<string, Summed>();
  const invocations = new Map<string, Set<string>>();
  const seen = new Set<string>();
  if (!Array.isArray(events)) return totals;
  for (const event of events as readonly unknown[]) {
    if (!isPlainObject(event)) continue;
    const { partial, customMetadata, invocationId } = event as CountedEvent;
    if (partial === true || !isPlainObject(customMetadata)) continue;
    const record = decodeCallRecord(customMetadata[CALL_METADATA_KEY]);
    if (!record) continue;
    if (record.id !== undefined) {
      if (seen.has(record.id)) continue;
      seen.add(record.id);
    }
    const sum = totals.get(record.agentName) ?? emptyTotals();
    totals.set(record.agentName, sum);
    for (const key of SUMMED_KEYS) sum[key] += record[key];
    if (typeof invocationId === 'string' && invocationId !== '') {
      const ids = invocations.get(record.agentName) ?? new Set<string>();
      invocations.set(record.agentName, ids);
      ids.add(invocationId);
      sum.invocations = ids.size;
    }
  }
  return totals;
}
