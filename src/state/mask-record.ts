/**
 * The masking watermark: tool results of the request contents before `upTo`
 * (and after the summary's watermark) are sent masked. Anchored like the
 * summary's watermark (see watermark.ts), so a changed history is detected
 * instead of masking the wrong contents.
 */
import { isPlainObject } from '../config/plain-object.js';
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
  if (!isPlainObject(value)) return undefined;
  const upTo = decodeCount(value['upTo']);
  const anchor = value['anchor'];
  if (upTo === undefined || upTo < 1 || !Number.isInteger(upTo) || typeof anchor !== 'string') return undefined;
  return {
    upTo,
    anchor,
    maskings: Math.floor(decodeCount(value['maskings']) ?? 1),
    createdAt: decodeCount(value['createdAt']) ?? 0,
  };
}
