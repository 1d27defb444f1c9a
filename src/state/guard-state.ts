/**
 * The records ContextGuard keeps in session state, with tolerant decoders.
 *
 * State comes back from a database after a JSON round trip: numbers may be
 * strings or floats, fields may be missing, and a key may hold garbage written
 * by an older version or another program. Decoders validate every field and
 * return `undefined` (or defaults) rather than throw; a record that fails to
 * decode is ignored and logged by the caller, never trusted.
 */

import { isPlainObject } from '../config/plain-object.js';
import { decodeFacts, type DurableFact } from '../memory/durable-facts.js';
import { MAX_CORRECTION, MIN_CORRECTION } from '../estimate/calibration.js';
import type { AgentUsageFigures, WindowOrigin } from './agent-usage-figures.js';
import { decodeCount, fieldReader, type FieldReader } from './field-reader.js';
import type { KeptContent } from './watermark.js';

export { decodeCount } from './field-reader.js';
export type { WindowOrigin } from './agent-usage-figures.js';

export const RECORD_VERSION = 1;

/** The current summary of an agent's history and what it covers. */
export interface SummaryRecord {
  readonly version: number;
  /** Summary text injected at the start of every request. */
  readonly text: string;
  /** Number of leading request contents the summary covers (the watermark). */
  readonly covered: number;
  /** Fingerprint of the last covered contents, to validate `covered` (see watermark.ts). */
  readonly anchor: string;
  /** The user's message before the watermark that stays verbatim (a compaction mid-turn; see watermark.ts). */
  readonly kept?: KeptContent | undefined;
  /** The user's request that was current when the summary was made. */
  readonly currentRequest?: string | undefined;
  /** How many compactions produced this summary chain. */
  readonly compactions: number;
  /** True when the mechanical fallback produced the text. */
  readonly fallback: boolean;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  /** Facts carried forward verbatim from summary to summary (see memory/durable-facts.ts). */
  readonly facts?: readonly DurableFact[] | undefined;
}

/** Calibration and counters, updated on every model call. */
export interface UsageRecord extends AgentUsageFigures {
  readonly version: number;
  /** Real `promptTokenCount` of the last request sent, if the provider reported it. */
  readonly realPromptTokens?: number | undefined;
  /** Heuristic estimate of the last request sent. */
  readonly lastEstimate?: number | undefined;
  /** Of `lastEstimate`, the estimator's own framing (see estimate/calibration.ts). */
  readonly lastFraming?: number | undefined;
  /** Heuristic estimate of the last request sent (paired with its real count when that arrives). */
  readonly sentEstimate?: number | undefined;
  /** Of `sentEstimate`, the estimator's own framing. */
  readonly sentFraming?: number | undefined;
  /** Calibrated estimate of the last request sent. */
  readonly lastCalibrated?: number | undefined;
  /** Correction learned from a real count; survives compactions. */
  readonly learnedCorrection?: number | undefined;
  /** Output tokens of the last response. */
  readonly outputTokens?: number | undefined;
  /** Summaries thrown away because they came out no smaller than what they would replace. */
  readonly discardedCompactions: number;
  /** Set after a rejected request: the next call compacts whatever the estimate says. */
  readonly forceCompaction: boolean;
  /** The id of the last invocation (user turn) seen. */
  readonly lastInvocationId?: string | undefined;
  /** Calibrated size at the first call of the current invocation. */
  readonly turnStartCalibrated?: number | undefined;
  /** Moving average of how many tokens one turn adds. */
  readonly averageTurnTokens?: number | undefined;
  /** Running totals of reported usage (see cost/bill-usage.ts): prompt tokens, cached ones among them, output tokens. */
  readonly billedPromptTokens?: number | undefined;
  readonly billedCachedPromptTokens?: number | undefined;
  readonly billedOutputTokens?: number | undefined;
  /** Cached prompt tokens of the last call, when reported. */
  readonly lastCachedPromptTokens?: number | undefined;
  /** Calls with reported usage whose model has no price (left out of `costUsd`). */
  readonly unpricedCalls?: number | undefined;
  /** The maximum a provider's rejection stated for `learnedWindowModel`: that model's window from then on. */
  readonly learnedWindow?: number | undefined;
  readonly learnedWindowModel?: string | undefined;
  /**
   * The largest request `acceptedModel` accepted in this session: the provider's real count when it reported one
   * (`acceptedTokens`) and the estimate of what was sent (`acceptedEstimate`). A stated maximum below it is not believed.
   */
  readonly acceptedTokens?: number | undefined;
  readonly acceptedEstimate?: number | undefined;
  readonly acceptedModel?: string | undefined;
  /** The last compaction that could not make the request fit, so it is not retried for nothing (trigger/futile-compaction.ts). */
  readonly futileCompaction?: FutileCompaction | undefined;
  /** Window and fixed part of the last over-limit warning: the same cause is counted, not warned about again. */
  readonly overLimitCause?: string | undefined;
  /** The pin cap at which pinning the first request was refused; retried only under a larger cap. */
  readonly firstRequestPinRefusedCap?: number | undefined;
}

const WINDOW_ORIGINS: readonly WindowOrigin[] = ['registry', 'option', 'learned', 'default'];

/** What a futile compaction was tried against (plain data; the decision is in trigger/futile-compaction.ts). */
export interface FutileCompaction {
  readonly window: number;
  /** Heuristic tokens of the system instruction, tools and pins. */
  readonly fixedTokens: number;
  /** Correction factor in force. */
  readonly correction: number;
  /** Heuristic tokens of the contents (summary included, before shrinking) right after the attempt. */
  readonly contentTokens: number;
}

export const EMPTY_USAGE: UsageRecord = {
  version: RECORD_VERSION,
  modelCalls: 0,
  compactions: 0,
  maskings: 0,
  discardedCompactions: 0,
  overLimitCalls: 0,
  rejectedCalls: 0,
  retriedCalls: 0,
  forceCompaction: false,
  invocations: 0,
};

function asRecord(value: unknown): Record<string, unknown> | undefined {
  if (typeof value === 'string') {
    try {
      return asRecord(JSON.parse(value));
    } catch {
      return undefined;
    }
  }
  return isPlainObject(value) ? value : undefined;
}

function decodeInteger(value: unknown): number | undefined {
  const number = decodeCount(value);
  return number === undefined ? undefined : Math.floor(number);
}

function decodeString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function decodeBoolean(value: unknown): boolean {
  return value === true || value === 'true';
}

/**
 * The kept content of a summary: `undefined` when there is none, `null` when
 * the field is present but unusable. Such a record is dropped whole: applying
 * it without its kept content would strip the user's current message.
 */
function decodeKept(value: unknown, covered: number): KeptContent | undefined | null {
  if (value === undefined || value === null) return undefined;
  const record = asRecord(value);
  const at = record ? decodeInteger(record['at']) : undefined;
  const fingerprint = record?.['fingerprint'];
  if (at === undefined || at >= covered || typeof fingerprint !== 'string') return null;
  return { at, fingerprint };
}

/** Decodes a summary record, or `undefined` when it is missing or unusable. */
export function decodeSummaryRecord(value: unknown): SummaryRecord | undefined {
  return readSummaryRecord(value).summary;
}

/** A summary record read from state, and its counters and marks that were out of range (dropped to their defaults). */
export function readSummaryRecord(value: unknown): { summary: SummaryRecord | undefined; dropped: readonly string[] } {
  const dropped: string[] = [];
  const record = asRecord(value);
  return { summary: record ? summaryFrom(record, dropped) : undefined, dropped };
}

function summaryFrom(record: Record<string, unknown>, dropped: string[]): SummaryRecord | undefined {
  const text = record['text'];
  const covered = decodeInteger(record['covered']);
  const anchor = record['anchor'];
  if (
    typeof text !== 'string' ||
    text.length === 0 ||
    covered === undefined ||
    covered < 1 ||
    typeof anchor !== 'string'
  ) {
    return undefined;
  }
  const kept = decodeKept(record['kept'], covered);
  if (kept === null) return undefined;
  const read = fieldReader(record, dropped);
  return {
    version: decodeInteger(record['version']) ?? RECORD_VERSION,
    text,
    covered,
    anchor,
    kept,
    currentRequest: decodeString(record['currentRequest']),
    compactions: Math.floor(read.number('compactions', { min: 1 }) ?? 1),
    fallback: decodeBoolean(record['fallback']),
    createdAt: read.number('createdAt', { max: Number.MAX_VALUE }) ?? 0,
    facts: decodeFacts(record['facts']),
  };
}

/**
 * Token counts above this are not trusted (no model has a 100M-token window,
 * the same bound `recordReportedUsage` applies to reported counts): a huge
 * value read from state would otherwise pin every estimate above the
 * threshold and compact on every turn until a real count replaced it.
 */
export const MAX_PLAUSIBLE_TOKENS = 100_000_000;

/** `value` when it is a whole token count of at least `min` and under `MAX_PLAUSIBLE_TOKENS`; `undefined` otherwise. */
export function plausibleTokenCount(value: unknown, min: number): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value < MAX_PLAUSIBLE_TOKENS
    ? value
    : undefined;
}

/** A usage record read from state: the record, and what was dropped from it (see field-reader.ts). */
interface ReadUsage {
  readonly usage: UsageRecord;
  /** Present but not a record (a string, a number, an array...): read as nothing learned yet. */
  readonly unreadable: boolean;
  /** Fields present but out of range, dropped. */
  readonly dropped: readonly string[];
}

/** Decodes a usage record; out-of-range fields (wrong type, negative, non-finite, implausibly large) fall back to their defaults. */
export function decodeUsageRecord(value: unknown): UsageRecord {
  return readUsageRecord(value).usage;
}

/** The smallest window a provider's statement or a record may name: the smallest an option may name. */
export const MIN_PLAUSIBLE_WINDOW = 1_024;

/**
 * A stated size of the rejected request more than this many times larger or smaller than the estimate of what was
 * sent is not about that request. Wider than the correction's clamp (1-5): a provider counting characters / 4 is
 * a quarter of the estimate on CJK text, and a ratio drifts.
 */
export const STATED_SIZE_RATIO = 8;

/** Decodes a usage record and says which of its values were out of range. */
export function readUsageRecord(value: unknown): ReadUsage {
  const record = asRecord(value);
  if (!record) return { usage: EMPTY_USAGE, unreadable: value !== undefined && value !== null, dropped: [] };
  const dropped: string[] = [];
  const read = fieldReader(record, dropped);
  const usage: UsageRecord = {
    version: decodeInteger(record['version']) ?? RECORD_VERSION,
    ...decodeCalibration(read),
    ...decodeCounters(read),
    ...decodeBudget(read),
    ...decodeBill(read),
    ...decodeLearnedWindow(read),
    futileCompaction: decodeFutileCompaction(record['futileCompaction']) ?? read.drop('futileCompaction'),
    overLimitCause: read.string('overLimitCause'),
    firstRequestPinRefusedCap: read.number('firstRequestPinRefusedCap', { max: MAX_PLAUSIBLE_TOKENS }),
  };
  return { usage, unreadable: false, dropped };
}

function decodeCalibration(read: FieldReader) {
  return {
    realPromptTokens: read.tokens('realPromptTokens', MAX_PLAUSIBLE_TOKENS),
    lastEstimate: read.tokens('lastEstimate', MAX_PLAUSIBLE_TOKENS),
    lastFraming: read.tokens('lastFraming', MAX_PLAUSIBLE_TOKENS),
    sentEstimate: read.tokens('sentEstimate', MAX_PLAUSIBLE_TOKENS),
    sentFraming: read.tokens('sentFraming', MAX_PLAUSIBLE_TOKENS),
    lastCalibrated: read.tokens('lastCalibrated', MAX_PLAUSIBLE_TOKENS),
    // The guard only ever stores a clamped correction: one outside the clamp was written by something else.
    learnedCorrection: read.number('learnedCorrection', { min: MIN_CORRECTION, max: MAX_CORRECTION }),
    outputTokens: read.number('outputTokens', { max: MAX_PLAUSIBLE_TOKENS }),
  };
}

function decodeCounters(read: FieldReader) {
  return {
    modelCalls: read.counter('modelCalls'),
    compactions: read.counter('compactions'),
    maskings: read.counter('maskings'),
    discardedCompactions: read.counter('discardedCompactions'),
    overLimitCalls: read.counter('overLimitCalls'),
    rejectedCalls: read.counter('rejectedCalls'),
    retriedCalls: read.counter('retriedCalls'),
    forceCompaction: read.boolean('forceCompaction'),
    invocations: read.counter('invocations'),
    lastInvocationId: read.string('lastInvocationId'),
  };
}

function decodeBudget(read: FieldReader) {
  return {
    window: read.tokens('window', MAX_PLAUSIBLE_TOKENS),
    threshold: read.tokens('threshold', MAX_PLAUSIBLE_TOKENS),
    hardLimit: read.tokens('hardLimit', MAX_PLAUSIBLE_TOKENS),
    turnStartCalibrated: read.tokens('turnStartCalibrated', MAX_PLAUSIBLE_TOKENS),
    averageTurnTokens: read.tokens('averageTurnTokens', MAX_PLAUSIBLE_TOKENS),
    windowSource: read.oneOf('windowSource', WINDOW_ORIGINS),
  };
}

function decodeBill(read: FieldReader) {
  return {
    billedPromptTokens: read.number('billedPromptTokens', {}),
    billedCachedPromptTokens: read.number('billedCachedPromptTokens', {}),
    billedOutputTokens: read.number('billedOutputTokens', {}),
    lastCachedPromptTokens: read.number('lastCachedPromptTokens', { max: MAX_PLAUSIBLE_TOKENS }),
    costUsd: read.number('costUsd', { max: Number.MAX_VALUE }),
    unpricedCalls: read.number('unpricedCalls', { integer: true }),
  };
}

/**
 * The learned window is bounded like a provider's statement (usage/learned-window.ts): a whole count of at
 * least 1,024, and never below a request the same model accepted in this session. An accepted estimate is in
 * the estimator's tokens, not the provider's: learning scaled it by the rejection's stated size over its
 * estimate, at least 1 / STATED_SIZE_RATIO, which a record does not keep, so it bounds here at that least.
 */
function decodeLearnedWindow(read: FieldReader) {
  const accepted = {
    acceptedTokens: read.tokens('acceptedTokens', MAX_PLAUSIBLE_TOKENS),
    acceptedEstimate: read.tokens('acceptedEstimate', MAX_PLAUSIBLE_TOKENS),
    acceptedModel: read.string('acceptedModel'),
  };
  const model = read.string('learnedWindowModel');
  const window = read.number('learnedWindow', {
    min: MIN_PLAUSIBLE_WINDOW,
    max: MAX_PLAUSIBLE_TOKENS - 1,
    integer: true,
  });
  const floor =
    model !== undefined && model === accepted.acceptedModel
      ? Math.max(accepted.acceptedTokens ?? 0, Math.floor((accepted.acceptedEstimate ?? 0) / STATED_SIZE_RATIO))
      : 0;
  if (window === undefined || model === undefined || window < floor) {
    if (window !== undefined) read.drop('learnedWindow');
    return accepted;
  }
  return { ...accepted, learnedWindow: window, learnedWindowModel: model };
}

function decodeFutileCompaction(value: unknown): FutileCompaction | undefined {
  const record = asRecord(value);
  if (!record) return undefined;
  const window = decodeCount(record['window'], MAX_PLAUSIBLE_TOKENS);
  const fixedTokens = decodeCount(record['fixedTokens'], MAX_PLAUSIBLE_TOKENS);
  const correction = decodeCount(record['correction'], 1_000);
  const contentTokens = decodeCount(record['contentTokens'], MAX_PLAUSIBLE_TOKENS);
  if (
    window === undefined ||
    window === 0 ||
    fixedTokens === undefined ||
    correction === undefined ||
    correction === 0 ||
    contentTokens === undefined
  )
    return undefined;
  return { window, fixedTokens, correction, contentTokens };
}

/** Plain JSON for state: undefined fields dropped so the record round-trips exactly. */
export function encodeRecord<T extends object>(record: T): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) if (value !== undefined) out[key] = value;
  return out;
}
