import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROPERTY_RUNS, summaryRecordArbitrary } from '../../test/support/arbitraries.js';
import { expectReadsBack } from '../../test/support/reads-back.js';
import { encodeRecord, RECORD_VERSION } from '../state/codec.js';
import { decodeSummaryRecord } from './stored-summary.js';

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

describe('decodeSummaryRecord', () => {
  describe("the facts' origins", () => {
    const facts = [{ text: 'Remember: my order id is ORDER-1003.', addedAt: 1, lastSeen: 2 }];

    it('should tell the asked facts of a record an earlier release wrote from their words', () => {
      expect(decodeSummaryRecord({ ...STORED_SUMMARY, facts })?.facts).toEqual([{ ...facts[0], asked: true }]);
    });

    it('should read as carrying origins a record one of whose facts is marked (written before the mark existed)', () => {
      const marked = [...facts, { text: 'Remember: ship to the side door.', addedAt: 1, lastSeen: 2, asked: true }];
      const read = decodeSummaryRecord({ ...STORED_SUMMARY, facts: marked });
      expect(read?.facts).toEqual(marked);
      expect(read?.factOrigins).toBe(true);
    });

    it('should read the facts of a record that carries their origins as stored, and keep the mark', () => {
      const read = decodeSummaryRecord({ ...STORED_SUMMARY, facts, factOrigins: true });
      expect(read?.facts).toEqual(facts);
      expect(read?.factOrigins).toBe(true);
    });
  });

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

    it('should reject a record whose covered contents are present but unusable', () => {
      for (const contents of ['x', { digest: 'd' }, { digest: 'd', tail: [3] }])
        expect(decodeSummaryRecord({ ...STORED_SUMMARY, contents })).toBeUndefined();
    });

    it('should read the covered contents back, and an older record without them as before', () => {
      const contents = { digest: 'sha', tail: ['f10', 'f11'] };
      expect(decodeSummaryRecord(JSON.parse(JSON.stringify({ ...STORED_SUMMARY, contents })))?.contents).toEqual(
        contents,
      );
      expect(decodeSummaryRecord(STORED_SUMMARY)).toMatchObject({ ...STORED_SUMMARY, contents: undefined });
    });

    it('should reject a record without an anchor', () => {
      expect(decodeSummaryRecord({ ...STORED_SUMMARY, anchor: undefined })).toBeUndefined();
      expect(decodeSummaryRecord({ ...STORED_SUMMARY, anchor: 7 })).toBeUndefined();
    });
  });

  describe('tolerated variations', () => {
    it('should read the mark of a summary cut at a late answer, and no mark where it is absent or false', () => {
      expect(decodeSummaryRecord({ ...STORED_SUMMARY, lateAnswer: true })?.lateAnswer).toBe(true);
      expect(decodeSummaryRecord({ ...STORED_SUMMARY, lateAnswer: 'true' })?.lateAnswer).toBe(true);
      for (const mark of [undefined, false, 'no'])
        expect(decodeSummaryRecord({ ...STORED_SUMMARY, lateAnswer: mark })).not.toHaveProperty('lateAnswer');
    });

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
