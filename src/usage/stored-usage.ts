/**
 * The usage record an agent keeps in session state, updated on every model call: its
 * calibration, counters, turns, window and marks, each declared and decoded in its own file.
 * Decoded tolerantly (see state/codec.ts): out-of-range fields fall back to their defaults and
 * are named so the caller warns once.
 */
import { asRecord, decodeInteger, RECORD_VERSION } from '../state/codec.js';
import { fieldReader } from '../state/field-reader.js';
import { decodeCalibration, type UsageCalibration } from './calibration.js';
import { decodeCounters, type UsageCounters } from './counters.js';
import { decodeMarks, type UsageMarks } from './marks.js';
import { decodeServerChain, type UsageServerChain } from './server-chain.js';
import { decodeTurns, type UsageTurns } from './turns.js';
import { decodeWindow, type UsageWindow } from './window.js';

/** Calibration, counters, turns, window, marks and the Interactions chain, updated on every model call. */
export interface UsageRecord
  extends UsageCalibration, UsageCounters, UsageTurns, UsageWindow, UsageMarks, UsageServerChain {
  readonly version: number;
}

export const EMPTY_USAGE: UsageRecord = {
  version: RECORD_VERSION,
  modelCalls: 0,
  compactions: 0,
  maskings: 0,
  discardedCompactions: 0,
  droppedPreparations: 0,
  overLimitCalls: 0,
  rejectedCalls: 0,
  retriedCalls: 0,
  budgetLines: 0,
  budgetLineTokens: 0,
  forceCompaction: false,
  invocations: 0,
};

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

/**
 * Decodes a usage record and says which of its values were out of range. Each guarded call reads the record
 * twice, each time an object the other callback just wrote: no decode is repeated, so none is kept.
 */
export function readUsageRecord(value: unknown): ReadUsage {
  const record = asRecord(value);
  if (!record) return { usage: EMPTY_USAGE, unreadable: value !== undefined && value !== null, dropped: [] };
  const dropped: string[] = [];
  const read = fieldReader(record, dropped);
  const usage: UsageRecord = {
    version: decodeInteger(record['version']) ?? RECORD_VERSION,
    ...decodeCalibration(read),
    ...decodeCounters(read),
    ...decodeTurns(read),
    ...decodeWindow(read),
    ...decodeMarks(read, record),
    ...decodeServerChain(read),
  };
  return { usage, unreadable: false, dropped };
}
