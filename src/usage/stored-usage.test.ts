import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROPERTY_RUNS, usageRecordArbitrary } from '../../test/support/arbitraries.js';
import { expectReadsBack } from '../../test/support/reads-back.js';
import { encodeRecord } from '../state/codec.js';
import { decodeUsageRecord, EMPTY_USAGE, readUsageRecord } from './stored-usage.js';
import { MIN_PLAUSIBLE_WINDOW } from './window.js';

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
