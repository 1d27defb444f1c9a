/**
 * The record of one guarded model call, carried on its own response event (or on the error event
 * of a failed call) as `customMetadata.context_guard_call`, which ADK persists verbatim.
 *
 * Concurrent turns of a session, and replicas serving it, each work on their own copy of the
 * session: counters read, incremented and written back in state lose the other turns' increments.
 * A record per call is never overwritten; `status()` sums them over the session's events
 * (records/call-totals.ts). Decoding is tolerant: an event's metadata may have been written by
 * anyone, so every figure is bounded and a record that does not decode is skipped.
 */
import type { CallBill } from '../cost/bill-usage.js';
import { MAX_CALLS, type SummarizerBill } from '../cost/bill-summary.js';
import { isPlainObject } from '../config/plain-object.js';
import { decodeCount } from '../state/field-reader.js';
import { EMPTY_USAGE, type UsageRecord } from '../usage/stored-usage.js';
import { plausibleTokenCount, RECORD_VERSION } from '../state/codec.js';
import { STATE_PREFIX } from '../state/keys.js';

export const CALL_METADATA_KEY = 'context_guard_call';

/** More of one counter in one record is not plausible: one record is one call (see `PendingCalls`). */
export const MAX_COUNT_PER_RECORD = 1_000;
/** USD of one call above this is not plausible (100M tokens at $10,000 per million). */
export const MAX_COST_PER_RECORD_USD = 1_000_000;

/** The usage record's counters a call record carries, each the call's own increment. */
export const COUNT_KEYS = [
  'modelCalls',
  'compactions',
  'maskings',
  'discardedCompactions',
  'droppedPreparations',
  'overLimitCalls',
  'rejectedCalls',
  'retriedCalls',
  'budgetLines',
  'budgetLineTokens',
] as const satisfies readonly (keyof UsageRecord)[];

/**
 * What the guard decided for one call, before the model answered: taken from the usage record's counters
 * (`rejectedCalls`: the provider rejected the call as too long, on the error event, or on the response
 * of the call retried after it; `retriedCalls`: that retry).
 */
export type CallCounts = Pick<UsageRecord, (typeof COUNT_KEYS)[number]>;

/** No call counted: the empty usage record's counters, read from it so the two never disagree. */
export const NO_COUNTS: CallCounts = Object.freeze(
  Object.fromEntries(COUNT_KEYS.map((key) => [key, EMPTY_USAGE[key]])) as CallCounts,
);

/** What a call billed, and the summarizer call of its compaction apart: summed as they are by records/call-totals.ts. */
export interface RecordedBill {
  /** The response's reported usage; zero without usage. `costUsd` is the call's and its summarizer's. */
  readonly promptTokens: number;
  readonly cachedPromptTokens: number;
  readonly outputTokens: number;
  readonly costUsd: number;
  /** 1 when the response had usage but its model no price (`costUsd` leaves it out). */
  readonly unpricedCalls: number;
  /** The summarizer calls of the call's compaction, apart (cost/bill-summary.ts); zero without one. */
  readonly summarizerCalls: number;
  readonly summarizerPromptTokens: number;
  readonly summarizerCachedPromptTokens: number;
  readonly summarizerOutputTokens: number;
  readonly summarizerCostUsd: number;
  /** Its summarizer calls when their cost is unknown (no usage reported, or no price). */
  readonly unpricedSummarizerCalls: number;
}

interface CallRecord extends CallCounts, RecordedBill {
  readonly version: number;
  /** Unique per call: a copy of an event re-appended (ADK re-yields old events in places) counts once. */
  readonly id: string | undefined;
  readonly agentName: string;
  /**
   * Set when the summarizer part is a summary prepared in the background: the id of its preparation. The
   * replica that made it records the bill when it settles, the call that applies it records it again (the
   * first record may never have been stored): the summarizer part is counted once per id (records/call-totals.ts).
   */
  readonly preparationId?: string | undefined;
}

/** A preparation id longer than this is not one the guard wrote (it writes UUIDs). */
const MAX_PREPARATION_ID_LENGTH = 100;

/** The kind of the state event that stores a background summary and its bill (adk/runtime/state-event.ts). */
export const PREPARED_EVENT_KIND = 'prepared';

/** The invocation id of a state event of `kind` the guard appends: `context_guard-<kind>-<time>`. */
export function stateEventInvocationId(kind: string, now: number): string {
  return `${STATE_PREFIX}-${kind}-${now}`;
}

/** Whether `invocationId` is that of a state event storing a background summary (not one a Runner makes). */
export function isPreparedEvent(invocationId: unknown): boolean {
  return typeof invocationId === 'string' && invocationId.startsWith(`${STATE_PREFIX}-${PREPARED_EVENT_KIND}-`);
}

/** The counters one call added to the usage record: its counts, whatever other turns wrote since. */
export function callCountsBetween(before: UsageRecord, after: UsageRecord): CallCounts {
  const counts: Record<keyof CallCounts, number> = { ...NO_COUNTS };
  for (const key of COUNT_KEYS) counts[key] = Math.max(0, after[key] - before[key]);
  return counts;
}

/** Two calls' counts together (a call whose response never came hands its counts to the next). */
export function addCounts(a: CallCounts, b: CallCounts): CallCounts {
  const counts: Record<keyof CallCounts, number> = { ...NO_COUNTS };
  for (const key of COUNT_KEYS) counts[key] = a[key] + b[key];
  return counts;
}

/** The record of a call, or `undefined` when it counted nothing and billed nothing. */
export function buildCallRecord(
  id: string,
  agentName: string,
  counts: CallCounts | undefined,
  bill: CallBill | undefined,
  summarizer?: SummarizerBill,
  preparationId?: string,
): CallRecord | undefined {
  const counted = counts !== undefined && COUNT_KEYS.some((key) => counts[key] > 0);
  if (!counted && !bill && !summarizer) return undefined;
  return {
    version: RECORD_VERSION,
    id,
    agentName,
    ...(counts ?? NO_COUNTS),
    promptTokens: bill?.promptTokens ?? 0,
    cachedPromptTokens: bill?.cachedPromptTokens ?? 0,
    outputTokens: bill?.outputTokens ?? 0,
    // The total, as the usage record's: the summarizer's part is also in `summarizerCostUsd`.
    costUsd: (bill?.costUsd ?? 0) + (summarizer?.costUsd ?? 0),
    unpricedCalls: bill && bill.costUsd === undefined && bill.laterResponse !== true ? 1 : 0,
    summarizerCalls: summarizer?.calls ?? 0,
    summarizerPromptTokens: summarizer?.promptTokens ?? 0,
    summarizerCachedPromptTokens: summarizer?.cachedPromptTokens ?? 0,
    summarizerOutputTokens: summarizer?.outputTokens ?? 0,
    summarizerCostUsd: summarizer?.costUsd ?? 0,
    unpricedSummarizerCalls: summarizer && summarizer.costUsd === undefined ? summarizer.calls : 0,
    ...(summarizer && preparationId !== undefined ? { preparationId } : {}),
  };
}

/** Plain JSON for `customMetadata`: zero figures are left out (they decode as zero), to keep events small. */
export function encodeCallRecord(record: CallRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // Keys, not entries: no pair array per field (made on every answer).
  for (const key of Object.keys(record)) {
    const value = (record as unknown as Record<string, unknown>)[key];
    if (value !== undefined && value !== 0) out[key] = value;
  }
  return out;
}

function decodeBounded(value: unknown, max: number, whole: boolean): number {
  const number = decodeCount(value, max);
  if (number === undefined) return 0;
  return whole ? Math.floor(number) : number;
}

/** A record read from an event, or `undefined` when it has no agent; each unusable figure reads as zero. */
export function decodeCallRecord(value: unknown): CallRecord | undefined {
  if (!isPlainObject(value)) return undefined;
  const agentName = value['agentName'];
  if (typeof agentName !== 'string' || agentName.length === 0) return undefined;
  const counts: Record<keyof CallCounts, number> = { ...NO_COUNTS };
  for (const key of COUNT_KEYS) counts[key] = decodeBounded(value[key], MAX_COUNT_PER_RECORD, true);
  const tokens = (key: string): number => plausibleTokenCount(value[key], 0) ?? 0;
  const promptTokens = tokens('promptTokens');
  const summarizerPromptTokens = tokens('summarizerPromptTokens');
  const summarizerCalls = decodeBounded(value['summarizerCalls'], MAX_CALLS, true);
  return {
    version: decodeBounded(value['version'], MAX_COUNT_PER_RECORD, true) || RECORD_VERSION,
    id: typeof value['id'] === 'string' ? value['id'] : undefined,
    agentName,
    ...counts,
    promptTokens,
    // Cached tokens are part of the prompt's: never more than it.
    cachedPromptTokens: Math.min(tokens('cachedPromptTokens'), promptTokens),
    outputTokens: tokens('outputTokens'),
    costUsd: decodeBounded(value['costUsd'], MAX_COST_PER_RECORD_USD, false),
    unpricedCalls: Math.min(1, decodeBounded(value['unpricedCalls'], 1, true)),
    // Records written before the summarizer was billed apart have none of these: zero.
    summarizerCalls,
    summarizerPromptTokens,
    summarizerCachedPromptTokens: Math.min(tokens('summarizerCachedPromptTokens'), summarizerPromptTokens),
    summarizerOutputTokens: tokens('summarizerOutputTokens'),
    summarizerCostUsd: decodeBounded(value['summarizerCostUsd'], MAX_COST_PER_RECORD_USD, false),
    unpricedSummarizerCalls: Math.min(
      summarizerCalls,
      decodeBounded(value['unpricedSummarizerCalls'], MAX_CALLS, true),
    ),
    // Only a record with a summarizer part names the preparation it bills.
    preparationId: summarizerCalls >= 1 ? preparationIdOf(value['preparationId']) : undefined,
  };
}

function preparationIdOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_PREPARATION_ID_LENGTH ? value : undefined;
}
