/**
 * The records ContextGuard keeps in session state, with tolerant decoders.
 *
 * State comes back from a database after a JSON round trip: numbers may be
 * strings or floats, fields may be missing, and a key may hold garbage written
 * by an older version or another program. Decoders validate every field and
 * return `undefined` (or defaults) rather than throw; a record that fails to
 * decode is ignored and logged by the caller, never trusted.
 */

import { decodeFacts, type DurableFact } from '../memory/durable-facts.js';

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
  /** Heuristic estimate of the last request sent (paired with its real count when that arrives). */
  readonly sentEstimate?: number | undefined;
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
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
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

function decodeBoolean(value: unknown): boolean {
  return value === true || value === 'true';
}

/** Decodes a summary record, or `undefined` when it is missing or unusable. */
export function decodeSummaryRecord(value: unknown): SummaryRecord | undefined {
  const record = asRecord(value);
  if (!record) return undefined;
  const text = record['text'];
  const covered = decodeInteger(record['covered']);
  const anchor = record['anchor'];
  if (typeof text !== 'string' || text.length === 0 || covered === undefined || covered < 1 || typeof anchor !== 'string') {
    return undefined;
  }
  const currentRequest = record['currentRequest'];
  return {
    version: decodeInteger(record['version']) ?? RECORD_VERSION,
    text,
    covered,
    anchor,
    currentRequest: typeof currentRequest === 'string' ? currentRequest : undefined,
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
    sentEstimate: positive('sentEstimate'),
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
    lastInvocationId: typeof record['lastInvocationId'] === 'string' ? record['lastInvocationId'] : undefined,
    turnStartCalibrated: positive('turnStartCalibrated'),
    averageTurnTokens: positive('averageTurnTokens'),
  };
}

/** Plain JSON for state: undefined fields dropped so the record round-trips exactly. */
export function encodeRecord<T extends object>(record: T): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) if (value !== undefined) out[key] = value;
  return out;
}
