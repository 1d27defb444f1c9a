import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROPERTY_RUNS, summaryRecordArbitrary, usageRecordArbitrary } from '../../test/support/arbitraries.js';
import {
  decodeCount,
  decodeSummaryRecord,
  decodeUsageRecord,
  EMPTY_USAGE,
  encodeRecord,
  MIN_PLAUSIBLE_WINDOW,
  readUsageRecord,
  RECORD_VERSION,
} from './guard-state.js';

const STORED_SUMMARY = {
  version: 1,
  text: 'The user wants a rollback.',
  covered: 12,
  anchor: 'a.b|c.d',
  currentRequest: 'Roll back.',
  compactions: 2,
  fallback: false,
  createdAt: 1_700_000_000_000,
};

/** A record after a JSON round trip through a session service. */
function roundTrip(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

/** `decode` reads back every record `records` makes, once encoded and through a JSON round trip. */
function expectReadsBack<T extends object>(records: fc.Arbitrary<T>, decode: (value: unknown) => T | undefined): void {
  fc.assert(
    fc.property(records, (record) => {
      expect(decode(roundTrip(encodeRecord(record)))).toEqual(record);
    }),
    PROPERTY_RUNS,
  );
}

describe('decodeCount', () => {
  describe('values that are not counts', () => {
    it('should reject missing values, booleans, objects and arrays', () => {
      for (const value of [undefined, null, true, {}, [5], () => 5]) expect(decodeCount(value)).toBeUndefined();
    });

    it('should reject NaN, infinities and negative numbers', () => {
      for (const value of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -1, -0.5])
        expect(decodeCount(value)).toBeUndefined();
    });

    it('should reject numbers above the maximum (unsafe integers by default)', () => {
      expect(decodeCount(1e20)).toBeUndefined();
      expect(decodeCount(2_000, 1_000)).toBeUndefined();
    });

    it('should reject strings that are blank or not numbers', () => {
      for (const value of ['', '   ', 'abc', '12 tokens', 'NaN', 'Infinity', '-3'])
        expect(decodeCount(value)).toBeUndefined();
    });
  });

  describe('counts', () => {
    it('should accept numbers, floats included', () => {
      expect(decodeCount(12)).toBe(12);
      expect(decodeCount(0)).toBe(0);
      expect(decodeCount(1.5)).toBe(1.5);
    });

    it('should accept numeric strings, as some session services return them', () => {
      expect(decodeCount('12')).toBe(12);
      expect(decodeCount(' 12 ')).toBe(12);
      expect(decodeCount('1.25')).toBe(1.25);
    });
  });
});

describe('decodeSummaryRecord', () => {
  describe('values that are not a usable summary', () => {
    it('should reject missing values, arrays, numbers and strings that are not JSON records', () => {
      for (const value of [undefined, null, 42, [STORED_SUMMARY], 'not json', '[1,2]', '"a string"'])
        expect(decodeSummaryRecord(value)).toBeUndefined();
    });

    it('should reject a record without text, an empty text or a text that is not a string', () => {
      expect(decodeSummaryRecord({ ...STORED_SUMMARY, text: undefined })).toBeUndefined();
      expect(decodeSummaryRecord({ ...STORED_SUMMARY, text: '' })).toBeUndefined();
      expect(decodeSummaryRecord({ ...STORED_SUMMARY, text: { nested: true } })).toBeUndefined();
    });

    it('should reject a watermark that is missing, zero, negative, NaN or not a number', () => {
      for (const covered of [undefined, 0, -3, Number.NaN, 'twelve', {}, 1e300])
        expect(decodeSummaryRecord({ ...STORED_SUMMARY, covered })).toBeUndefined();
    });

    it('should reject a record without an anchor', () => {
      expect(decodeSummaryRecord({ ...STORED_SUMMARY, anchor: undefined })).toBeUndefined();
      expect(decodeSummaryRecord({ ...STORED_SUMMARY, anchor: 7 })).toBeUndefined();
    });
  });

  describe('tolerated variations', () => {
    it('should decode a record stored as a JSON string', () => {
      expect(decodeSummaryRecord(JSON.stringify(STORED_SUMMARY))).toMatchObject(STORED_SUMMARY);
    });

    it('should read numbers stored as strings and floor a float watermark', () => {
      expect(
        decodeSummaryRecord({ ...STORED_SUMMARY, covered: '12', compactions: '2', createdAt: '1700000000000' }),
      ).toMatchObject(STORED_SUMMARY);
      expect(decodeSummaryRecord({ ...STORED_SUMMARY, covered: 12.9 })?.covered).toBe(12);
    });

    it('should default missing counters and ignore a malformed request', () => {
      const decoded = decodeSummaryRecord({ text: 'x', covered: 3, anchor: '^|a', currentRequest: 42 });
      expect(decoded).toMatchObject({
        version: RECORD_VERSION,
        compactions: 1,
        fallback: false,
        createdAt: 0,
        currentRequest: undefined,
      });
    });

    it('should round-trip the kept request of a mid-turn summary, and read one stored as strings', () => {
      const kept = { at: 4, fingerprint: 'u.task' };
      expect(decodeSummaryRecord(JSON.parse(JSON.stringify(encodeRecord({ ...STORED_SUMMARY, kept }))))?.kept).toEqual(
        kept,
      );
      expect(decodeSummaryRecord({ ...STORED_SUMMARY, kept: { at: '4', fingerprint: 'u.task' } })?.kept).toEqual(kept);
      expect(decodeSummaryRecord({ ...STORED_SUMMARY, kept: null })?.kept).toBeUndefined();
    });

    it('should drop a summary whose kept request is unusable rather than strip the request with the rest', () => {
      for (const kept of [
        { at: 12, fingerprint: 'x' },
        { at: -1, fingerprint: 'x' },
        { at: 3 },
        { fingerprint: 'x' },
        'garbage',
        7,
      ]) {
        expect(decodeSummaryRecord({ ...STORED_SUMMARY, kept })).toBeUndefined();
      }
    });

    it('should read a fallback flag stored as a string', () => {
      expect(decodeSummaryRecord({ ...STORED_SUMMARY, fallback: 'true' })?.fallback).toBe(true);
      expect(decodeSummaryRecord({ ...STORED_SUMMARY, fallback: 'yes' })?.fallback).toBe(false);
    });
  });

  describe('laws', () => {
    it('should read back every record it could have written, after a JSON round trip', () => {
      expectReadsBack(summaryRecordArbitrary, decodeSummaryRecord);
    });

    it('should return undefined or a usable record for anything at all, never throw', () => {
      fc.assert(
        fc.property(
          fc.oneof(
            fc.anything(),
            fc.anything().map((value) => JSON.stringify(value) ?? ''),
          ),
          (value) => {
            const decoded = decodeSummaryRecord(value);
            if (decoded === undefined) return;
            expect(Number.isInteger(decoded.covered) && decoded.covered >= 1).toBe(true);
            expect(decoded.text.length).toBeGreaterThan(0);
          },
        ),
        PROPERTY_RUNS,
      );
    });
  });
});

describe('decodeUsageRecord', () => {
  describe('values that are not a usage record', () => {
    it('should return the empty record for missing values and garbage', () => {
      for (const value of [undefined, null, 'garbage', 7, [1, 2]])
        expect(decodeUsageRecord(value)).toEqual(EMPTY_USAGE);
    });

    it('should drop fields that are negative, zero where a size is expected, NaN or huge', () => {
      const decoded = decodeUsageRecord({
        realPromptTokens: 0,
        lastEstimate: -5,
        sentEstimate: Number.NaN,
        lastCalibrated: 1e300,
        outputTokens: -1,
        modelCalls: -2,
      });
      expect(decoded).toMatchObject({
        realPromptTokens: undefined,
        lastEstimate: undefined,
        sentEstimate: undefined,
        lastCalibrated: undefined,
        outputTokens: undefined,
        modelCalls: 0,
      });
    });

    it('should drop a learned correction that is zero or above 1,000', () => {
      expect(decodeUsageRecord({ learnedCorrection: 0 }).learnedCorrection).toBeUndefined();
      expect(decodeUsageRecord({ learnedCorrection: 2_000 }).learnedCorrection).toBeUndefined();
    });
  });

  describe('tolerated variations', () => {
    it('should read numbers stored as strings and floor counters', () => {
      const decoded = decodeUsageRecord({
        realPromptTokens: '3000',
        lastEstimate: '2000.5',
        learnedCorrection: '1.5',
        modelCalls: '7.9',
        forceCompaction: 'true',
      });
      expect(decoded).toMatchObject({
        realPromptTokens: 3_000,
        lastEstimate: 2_000.5,
        learnedCorrection: 1.5,
        modelCalls: 7,
        forceCompaction: true,
      });
    });

    it('should decode a record stored as a JSON string', () => {
      expect(decodeUsageRecord(JSON.stringify({ modelCalls: 3, sentEstimate: 100 }))).toMatchObject({
        modelCalls: 3,
        sentEstimate: 100,
      });
    });
  });

  describe('laws', () => {
    it('should read back every record it could have written, after a JSON round trip', () => {
      expectReadsBack(usageRecordArbitrary, decodeUsageRecord);
    });

    it('should read back every record whose numbers were turned into strings', () => {
      fc.assert(
        fc.property(usageRecordArbitrary, (record) => {
          const stringified = Object.fromEntries(
            Object.entries(encodeRecord(record)).map(([key, value]) => [
              key,
              typeof value === 'number' ? String(value) : value,
            ]),
          );
          expect(decodeUsageRecord(stringified)).toEqual(record);
        }),
        PROPERTY_RUNS,
      );
    });

    it('should drop nothing, and warn of nothing, from a record it could have written', () => {
      fc.assert(
        fc.property(usageRecordArbitrary, (record) => {
          expect(readUsageRecord(JSON.parse(JSON.stringify(encodeRecord(record))))).toMatchObject({
            unreadable: false,
            dropped: [],
          });
        }),
        PROPERTY_RUNS,
      );
    });

    it('should never read a learned window below 1,024 or below the size its model accepted, nor a correction outside 1-5', () => {
      const anyValue = fc.oneof(fc.integer({ min: -10, max: 200_000 }), fc.double(), fc.string(), fc.constant(null));
      fc.assert(
        fc.property(
          fc.record({
            learnedWindow: anyValue,
            learnedWindowModel: fc.constantFrom('m', 'n'),
            acceptedTokens: anyValue,
            acceptedEstimate: anyValue,
            acceptedModel: fc.constantFrom('m', 'n'),
            learnedCorrection: anyValue,
          }),
          (value) => {
            const { usage, dropped } = readUsageRecord(value);
            if (usage.learnedWindow !== undefined) {
              expect(usage.learnedWindow).toBeGreaterThanOrEqual(MIN_PLAUSIBLE_WINDOW);
              if (usage.acceptedModel === usage.learnedWindowModel)
                // An accepted estimate is in the estimator's tokens: at least 1/8 of them are the provider's.
                expect(usage.learnedWindow).toBeGreaterThanOrEqual(
                  Math.max(usage.acceptedTokens ?? 0, Math.floor((usage.acceptedEstimate ?? 0) / 8)),
                );
            } else if (value.learnedWindow !== null) expect(dropped).toContain('learnedWindow');
            if (usage.learnedCorrection !== undefined) {
              expect(usage.learnedCorrection).toBeGreaterThanOrEqual(1);
              expect(usage.learnedCorrection).toBeLessThanOrEqual(5);
            }
          },
        ),
        PROPERTY_RUNS,
      );
    });

    it('should read back a window learned over an accepted estimate that the rejection scaled down', () => {
      // Learned from a rejection stating half the estimate: an estimate of 2,430 accepted is 1,215 of the provider's.
      const usage = { acceptedModel: 'm', acceptedEstimate: 2_430, learnedWindow: 2_000, learnedWindowModel: 'm' };
      expect(readUsageRecord(usage)).toMatchObject({ usage: { learnedWindow: 2_000 }, dropped: [] });
      expect(readUsageRecord({ ...usage, acceptedEstimate: 16_008 }).dropped).toContain('learnedWindow');
    });

    it('should return non-negative integer counters and positive sizes for anything at all, never throw', () => {
      fc.assert(
        fc.property(
          fc.oneof(
            fc.anything(),
            fc.dictionary(
              fc.constantFrom('modelCalls', 'compactions', 'realPromptTokens', 'learnedCorrection'),
              fc.anything(),
            ),
          ),
          (value) => {
            const decoded = decodeUsageRecord(value);
            for (const counter of [
              decoded.modelCalls,
              decoded.compactions,
              decoded.overLimitCalls,
              decoded.rejectedCalls,
              decoded.invocations,
            ]) {
              expect(Number.isInteger(counter) && counter >= 0).toBe(true);
            }
            for (const size of [
              decoded.realPromptTokens,
              decoded.lastEstimate,
              decoded.sentEstimate,
              decoded.learnedCorrection,
            ]) {
              if (size !== undefined) expect(Number.isFinite(size) && size > 0).toBe(true);
            }
          },
        ),
        PROPERTY_RUNS,
      );
    });
  });
});

describe('encodeRecord', () => {
  describe('undefined fields', () => {
    it('should drop them, so the record is plain JSON', () => {
      expect(encodeRecord({ a: 1, b: undefined, c: 'x' })).toEqual({ a: 1, c: 'x' });
      expect(Object.keys(encodeRecord({ a: 1, b: undefined }))).toEqual(['a']);
    });
  });
});
