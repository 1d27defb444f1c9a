/**
 * The masking watermark: tool results of the request contents before `upTo`
 * (and after the summary's watermark) are sent masked. Anchored like the
 * summary's watermark (see watermark.ts), so a changed history is detected
 * instead of masking the wrong contents.
 */
import { isPlainObject } from '../config/plain-object.js';
import { decodeCount, fieldReader } from '../state/field-reader.js';
import { decodeCoveredContents, type CoveredContents } from '../state/covered-contents.js';

export interface MaskRecord {
  /** Number of leading request contents whose tool results are masked. */
  readonly upTo: number;
  /**
   * Contents before this index are never masked by this record: a masking for room that started past the
   * summary's watermark to keep the provider's cached head (mask-start.ts). Absent in older records and
   * when the masking starts at the summary's watermark.
   */
  readonly start?: number | undefined;
  /** Fingerprint of the contents just before `upTo` (see watermark.ts). */
  readonly anchor: string;
  /** The contents before `upTo`, order aside, to find the watermark after a reorder (see covered-contents.ts); absent in older records. */
  readonly contents?: CoveredContents | undefined;
  /** How many times the watermark was moved. */
  readonly maskings: number;
  /** Epoch milliseconds of the last move. */
  readonly createdAt: number;
}

/** Decodes a stored mask record, or `undefined` when it is missing or unusable. */
export function decodeMaskRecord(value: unknown): MaskRecord | undefined {
  return readMaskRecord(value).mask;
}

/**
 * A stored mask record, whether it was present but unusable (then it is not applied), and its counters that
 * were out of range (dropped to their defaults).
 */
export function readMaskRecord(value: unknown): {
  mask: MaskRecord | undefined;
  unreadable: boolean;
  dropped: readonly string[];
} {
  const dropped: string[] = [];
  if (!isPlainObject(value)) return { mask: undefined, unreadable: value !== undefined && value !== null, dropped };
  const upTo = decodeCount(value['upTo']);
  const anchor = value['anchor'];
  if (upTo === undefined || upTo < 1 || !Number.isInteger(upTo) || typeof anchor !== 'string')
    return { mask: undefined, unreadable: true, dropped };
  const contents = decodeCoveredContents(value['contents'], upTo);
  const start = decodeStart(value['start'], upTo);
  if (contents === null || start === null) return { mask: undefined, unreadable: true, dropped };
  const read = fieldReader(value, dropped);
  const mask = {
    upTo,
    ...(start !== undefined && { start }),
    anchor,
    contents,
    maskings: Math.floor(read.number('maskings', {}) ?? 1),
    createdAt: read.number('createdAt', { max: Number.MAX_VALUE }) ?? 0,
  };
  return { mask, unreadable: false, dropped };
}

/** A record's start: absent, or a whole index in [0, upTo); `null` when it is there but not one. */
function decodeStart(value: unknown, upTo: number): number | undefined | null {
  if (value === undefined || value === null) return undefined;
  const start = decodeCount(value, upTo - 1);
  return start !== undefined && Number.isInteger(start) ? start : null;
}
