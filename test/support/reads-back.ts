import fc from 'fast-check';
import { expect } from 'vitest';
import { encodeRecord } from '../../src/state/codec.js';
import { PROPERTY_RUNS } from './arbitraries.js';

/** A record after a JSON round trip through a session service. */
export function roundTrip(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

/** `decode` reads back every record `records` makes, once encoded and through a JSON round trip. */
export function expectReadsBack<T extends object>(
  records: fc.Arbitrary<T>,
  decode: (value: unknown) => T | undefined,
): void {
  fc.assert(
    fc.property(records, (record) => {
      expect(decode(roundTrip(encodeRecord(record)))).toEqual(record);
    }),
    PROPERTY_RUNS,
  );
}
