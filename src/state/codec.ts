/**
 * Reading and writing the guard's records in session state.
 *
 * State comes back from a database after a JSON round trip: numbers may be
 * strings or floats, fields may be missing, and a key may hold garbage written
 * by an older version or another program. Decoders validate every field and
 * return `undefined` (or defaults) rather than throw; a record that fails to
 * decode is ignored and logged by the caller, never trusted.
 */
import { MAX_PLAUSIBLE_TOKENS } from '../config/option-spec.js';
import { isPlainObject } from '../config/plain-object.js';
import { decodeCount } from './field-reader.js';

export const RECORD_VERSION = 1;

/** A record from an object or its JSON text; `undefined` for anything else. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  if (typeof value === 'string') {
    try {
      return asRecord(JSON.parse(value));
    } catch {
      return undefined;
    }
  }
  return isPlainObject(value) ? value : undefined;
}

export function decodeInteger(value: unknown): number | undefined {
  const number = decodeCount(value);
  return number === undefined ? undefined : Math.floor(number);
}

export function decodeString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function decodeBoolean(value: unknown): boolean {
  return value === true || value === 'true';
}

/**
 * Counts above `MAX_PLAUSIBLE_TOKENS` (config/option-spec.ts, where the window options' ranges read it too) are not
 * plausible: a huge value read from state would otherwise pin every estimate above the threshold and compact on
 * every turn until a real count replaced it.
 */
export { MAX_PLAUSIBLE_TOKENS };

/** `value` when it is a whole token count of at least `min` and under `MAX_PLAUSIBLE_TOKENS`; `undefined` otherwise. */
export function plausibleTokenCount(value: unknown, min: number): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value < MAX_PLAUSIBLE_TOKENS
    ? value
    : undefined;
}

/** Plain JSON for state: undefined fields dropped so the record round-trips exactly. */
export function encodeRecord<T extends object>(record: T): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // Keys, not entries: no pair array per field (the usage record, some 40 fields, is encoded twice a call).
  for (const key of Object.keys(record)) {
    const value = (record as Record<string, unknown>)[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}
