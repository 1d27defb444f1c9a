/**
 * The masking watermark: tool results of the request contents before `upTo`
 * (and after the summary's watermark) are sent masked. Anchored like the
 * summary's watermark (see watermark.ts), so a changed history is detected
 * instead of masking the wrong contents.
 */
import { decodeCount } from './guard-state.js';

export interface MaskRecord {
  /** Number of leading request contents whose tool results are masked. */
  readonly upTo: number;
  /** Fingerprint of the contents just before `upTo` (see watermark.ts). */
  readonly anchor: string;
  /** How many times the watermark was moved. */
  readonly maskings: number;
  /** Epoch milliseconds of the last move. */
  readonly createdAt: number;
}

/** Decodes a stored mask record, or `undefined` when it is missing or unusable. */
export function decodeMaskRecord(value: unknown): MaskRecord | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const upTo = decodeCount(record['upTo']);
  const anchor = record['anchor'];
  if (upTo === undefined || upTo < 1 || !Number.isInteger(upTo) || typeof anchor !== 'string') return undefined;
  return {
    upTo,
    anchor,
    maskings: Math.floor(decodeCount(record['maskings']) ?? 1),
    createdAt: decodeCount(record['createdAt']) ?? 0,
  };
}
