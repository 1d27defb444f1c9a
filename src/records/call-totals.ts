/**
 * The per-call records of a session's events, summed per agent: the counts of `status()` that
 * concurrent turns and replicas cannot overwrite (records/call-record.ts). Linear in the events;
 * only `status()` calls it, never the model-call path.
 */
import { isPlainObject } from '../config/plain-object.js';
import {
  CALL_METADATA_KEY,
  COUNT_KEYS,
  decodeCallRecord,
  isPreparedEvent,
  type RecordedBill,
  type CallCounts,
} from './call-record.js';
import { cameThroughA2a } from './remote-records.js';
import { childCallsIn } from './child-calls.js';

/** What summing reads of an event (an ADK `Event` has these). */
export interface CountedEvent {
  readonly invocationId?: string | undefined;
  readonly author?: string | undefined;
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

type DecodedRecord = NonNullable<ReturnType<typeof decodeCallRecord>>;

/** `record` without its summarizer part (`costUsd` is the total: its summarizer share goes too). */
function withoutSummarizer(record: DecodedRecord): DecodedRecord {
  return {
    ...record,
    costUsd: Math.max(0, record.costUsd - record.summarizerCostUsd),
    summarizerCalls: 0,
    summarizerPromptTokens: 0,
    summarizerCachedPromptTokens: 0,
    summarizerOutputTokens: 0,
    summarizerCostUsd: 0,
    unpricedSummarizerCalls: 0,
  };
}

/**
 * Whether `event` may name the preparation its record bills: the state event that stores a background summary,
 * or the agent's own response (the call that applied it). Anywhere else (a user's message carries whatever
 * `customMetadata` the app passed) a preparation id is ignored: it could otherwise hide a real bill.
 */
function namesPreparation(event: CountedEvent, agentName: string): boolean {
  return event.author === agentName || isPreparedEvent(event.invocationId);
}

/**
 * The record as it counts: a background summary's bill already counted from another record of the same
 * agent and preparation (the settling replica's, or the applying call's) leaves only the call's own part;
 * and its compaction, applied by two calls (two turns of one session at once took the same preparation: the
 * fifty-third outside trial), counts once.
 */
function countedPart(
  record: DecodedRecord,
  event: CountedEvent,
  seen: { readonly billed: Set<string>; readonly applied: Set<string> },
): DecodedRecord {
  const id = record.preparationId;
  if (id === undefined) return record;
  if (!namesPreparation(event, record.agentName)) return { ...record, preparationId: undefined };
  const key = `${record.agentName}\u0000${id}`;
  const billed = seen.billed.has(key) ? withoutSummarizer(record) : record;
  seen.billed.add(key);
  if (billed.compactions === 0) return billed;
  if (!seen.applied.has(key)) {
    seen.applied.add(key);
    return billed;
  }
  return { ...billed, compactions: billed.compactions - 1 };
}

function emptyTotals(): Summed {
  const totals = { invocations: 0 } as Summed;
  for (const key of SUMMED_KEYS) totals[key] = 0;
  return totals;
}

/**
 * Totals per agent name of the records on `events`. Partial (streamed) events are skipped (never
 * stored, and they repeat the final response's usage), so are records that came through A2A, and so is a record whose id was seen
 * before (a copy of an event appended again); a background summary's bill counts once however
 * many records carry it. An `AgentTool` child's records on the event that answered its call count as
 * events of the child (records/child-calls.ts). Anything that is not an array counts nothing.
 */
export function sumCallRecords(events: unknown): Map<string, CallTotals> {
  const summing = new Summing();
  if (!Array.isArray(events)) return summing.totals;
  for (const event of events as readonly unknown[]) {
    if (!isPlainObject(event)) continue;
    const counted = event as CountedEvent;
    const { partial, customMetadata } = counted;
    // A remote A2A agent's records are its server's calls, counted there (records/remote-records.ts).
    if (partial === true || !isPlainObject(customMetadata) || cameThroughA2a(customMetadata)) continue;
    summing.add(counted, customMetadata[CALL_METADATA_KEY]);
    for (const { invocationId, record } of childCallsIn(customMetadata))
      summing.add({ invocationId, author: typeof record['agentName'] === 'string' ? record['agentName'] : '' }, record);
  }
  return summing.totals;
}

/** Records added up per agent, each id once. */
class Summing {
  readonly totals = new Map<string, Summed>();
  private readonly invocations = new Map<string, Set<string>>();
  private readonly seen = new Set<string>();
  private readonly preparations = { billed: new Set<string>(), applied: new Set<string>() };

  /** Adds the record `value` that `counted` carries, if it is one. */
  add(counted: CountedEvent, value: unknown): void {
    const decoded = decodeCallRecord(value);
    if (!decoded) return;
    if (decoded.id !== undefined) {
      if (this.seen.has(decoded.id)) return;
      this.seen.add(decoded.id);
    }
    const record = countedPart(decoded, counted, this.preparations);
    const sum = this.totals.get(record.agentName) ?? emptyTotals();
    this.totals.set(record.agentName, sum);
    for (const key of SUMMED_KEYS) sum[key] += record[key];
    // A background summary's own record (no model call) is written outside any invocation of the agent.
    const background = record.preparationId !== undefined && record.modelCalls === 0;
    const { invocationId } = counted;
    if (!background && typeof invocationId === 'string' && invocationId !== '') {
      const ids = this.invocations.get(record.agentName) ?? new Set<string>();
      this.invocations.set(record.agentName, ids);
      ids.add(invocationId);
      sum.invocations = ids.size;
    }
  }
}
