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
import type { KeptContent } from './watermark.js';

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
export interface UsageRecord {
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
  readonly modelCalls: number;
  readonly compactions: number;
  /** Times old tool results were masked (the mask watermark moved), with no model call. */
  readonly maskings: number;
  /** Summaries thrown away because they came out no smaller than what they would replace. */
  readonly discardedCompactions: number;
  /** Requests sent although they were still over the hard limit after every reduction. */
  readonly overLimitCalls: number;
  /** Requests the provider rejected as too long. */
  readonly rejectedCalls: number;
  /** Set after a rejected request: the next call compacts whatever the estimate says. */
  readonly forceCompaction: boolean;
  /** Budget of the last call, for status displays. */
  readonly window?: number | undefined;
  readonly threshold?: number | undefined;
  readonly hardLimit?: number | undefined;
  /** Invocations (user turns) seen, and the id of the last one. */
  readonly invocations: number;
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
  /** Estimated USD of the calls whose model has a price. */
  readonly costUsd?: number | undefined;
  /** Calls with reported usage whose model has no price (left out of `costUsd`). */
  readonly unpricedCalls?: number | undefined;
  /** Where `window` came from (see guard/learned-window.ts). */
  readonly windowSource?: WindowOrigin | undefined;
  /** The maximum a provider's rejection stated for `learnedWindowModel`: that model's window from then on. */
  readonly learnedWindow?: number | undefined;
  readonly learnedWindowModel?: string | undefined;
  /** The last compaction that could not make the request fit, so it is not retried for nothing (guard/futile-compaction.ts). */
  readonly futileCompaction?: FutileCompaction | undefined;
  /** Window and fixed part of the last over-limit warning: the same cause is counted, not warned about again. */
  readonly overLimitCause?: string | undefined;
  /** The pin cap at which pinning the first request was refused; retried only under a larger cap. */
  readonly firstRequestPinRefusedCap?: number | undefined;
}

/** Where an agent's window comes from: the model registry, the user's options, a provider's rejection, or the default. */
export type WindowOrigin = 'registry' | 'option' | 'learned' | 'default';
const WINDOW_ORIGINS: readonly WindowOrigin[] = ['registry', 'option', 'learned', 'default'];

/** What a futile compaction was tried against (plain data; the decision is in guard/futile-compaction.ts). */
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

/** A finite, non-negative number from a number or numeric string; `undefined` otherwise. */
export function decodeCount(value: unknown, max: number = Number.MAX_SAFE_INTEGER): number | undefined {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number) || number < 0 || number > max) return undefined;
  return number;
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
  const record = asRecord(value);
  if (!record) return undefined;
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
  return {
    version: decodeInteger(record['version']) ?? RECORD_VERSION,
    text,
    covered,
    anchor,
    kept,
    currentRequest: decodeString(record['currentRequest']),
    compactions: decodeInteger(record['compactions']) ?? 1,
    fallback: decodeBoolean(record['fallback']),
    createdAt: decodeCount(record['createdAt']) ?? 0,
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

/** Decodes a usage record; unusable fields (wrong type, negative, non-finite, implausibly large) fall back to their defaults. */
export function decodeUsageRecord(value: unknown): UsageRecord {
  const record = asRecord(value);
  if (!record) return EMPTY_USAGE;
  const positive = (key: string): number | undefined => {
    const number = decodeCount(record[key], MAX_PLAUSIBLE_TOKENS);
    return number !== undefined && number > 0 ? number : undefined;
  };
  const learned = decodeCount(record['learnedCorrection'], 1_000);
  return {
    version: decodeInteger(record['version']) ?? RECORD_VERSION,
    realPromptTokens: positive('realPromptTokens'),
    lastEstimate: positive('lastEstimate'),
    lastFraming: positive('lastFraming'),
    sentEstimate: positive('sentEstimate'),
    sentFraming: positive('sentFraming'),
    lastCalibrated: positive('lastCalibrated'),
    learnedCorrection: learned !== undefined && learned > 0 ? learned : undefined,
    outputTokens: decodeCount(record['outputTokens'], MAX_PLAUSIBLE_TOKENS),
    modelCalls: decodeInteger(record['modelCalls']) ?? 0,
    compactions: decodeInteger(record['compactions']) ?? 0,
    maskings: decodeInteger(record['maskings']) ?? 0,
    discardedCompactions: decodeInteger(record['discardedCompactions']) ?? 0,
    overLimitCalls: decodeInteger(record['overLimitCalls']) ?? 0,
    rejectedCalls: decodeInteger(record['rejectedCalls']) ?? 0,
    forceCompaction: decodeBoolean(record['forceCompaction']),
    window: positive('window'),
    threshold: positive('threshold'),
    hardLimit: positive('hardLimit'),
    invocations: decodeInteger(record['invocations']) ?? 0,
    lastInvocationId: decodeString(record['lastInvocationId']),
    turnStartCalibrated: positive('turnStartCalibrated'),
    averageTurnTokens: positive('averageTurnTokens'),
    billedPromptTokens: decodeCount(record['billedPromptTokens']),
    billedCachedPromptTokens: decodeCount(record['billedCachedPromptTokens']),
    billedOutputTokens: decodeCount(record['billedOutputTokens']),
    lastCachedPromptTokens: decodeCount(record['lastCachedPromptTokens'], MAX_PLAUSIBLE_TOKENS),
    costUsd: decodeCount(record['costUsd']),
    unpricedCalls: decodeInteger(record['unpricedCalls']),
    windowSource: WINDOW_ORIGINS.find((origin) => origin === record['windowSource']),
    learnedWindow: positive('learnedWindow'),
    learnedWindowModel: decodeString(record['learnedWindowModel']),
    futileCompaction: decodeFutileCompaction(record['futileCompaction']),
    overLimitCause: decodeString(record['overLimitCause']),
    firstRequestPinRefusedCap: decodeCount(record['firstRequestPinRefusedCap'], MAX_PLAUSIBLE_TOKENS),
  };
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
