import { describe, expect, it } from 'vitest';
import { encodeRecord } from '../state/codec.js';
import { type SummaryRecord } from '../summary/stored-summary.js';
import { MAX_LISTED_DROPPED_FACTS } from '../summary/dropped-facts.js';
import {
  decodePreparationClaim,
  decodeStoredPreparedSummary,
  restorePrepared,
  storePrepared,
  summaryIdentity,
  type StoredPreparedSummary,
} from './prepared-record.js';

const record: SummaryRecord = {
  version: 1,
  text: 'Summary.',
  covered: 6,
  anchor: 'f5|f6',
  compactions: 1,
  fallback: false,
  createdAt: 1_700_000_000_000,
  facts: [],
};
const stored: StoredPreparedSummary = {
  id: '5e0c2a8e-8a43-4f55-9b36-4c0e8d8e7f10',
  startedAt: 1_700_000_000_500,
  previous: summaryIdentity(record),
  watermark: { covered: 12, anchor: 'f11|f12', kept: { at: 10, fingerprint: 'f11' } },
  record: { ...record, covered: 12, anchor: 'f11|f12' },
  droppedFacts: ['an old fact'],
  droppedFactCount: 1,
  outcome: { ok: true, truncated: false, promptTokens: 900, outputTokens: 120, requestTokens: 700 },
  currentRequest: 'Turn 7',
  droppedContents: 0,
};

/** As a database hands it back: JSON, undefined fields gone. */
const roundTrip = (value: object): unknown => JSON.parse(JSON.stringify(encodeRecord(value)));

describe('prepared records in state', () => {
  it('should read back what was stored, through JSON', () => {
    expect(decodeStoredPreparedSummary(roundTrip(stored))).toEqual(stored);
    expect(decodePreparationClaim(roundTrip(stored))).toEqual({
      id: stored.id,
      startedAt: stored.startedAt,
      previous: stored.previous,
      watermark: stored.watermark,
    });
  });

  it("should carry the application's answers a preparation read, and read unusable keys as absent", () => {
    const claim = { ...stored, answers: ['k1', 'k1', 'k2'] };
    expect(decodePreparationClaim(roundTrip(claim))?.answers).toEqual(['k1', 'k1', 'k2']);
    expect(decodeStoredPreparedSummary(roundTrip(claim))?.answers).toEqual(['k1', 'k1', 'k2']);
    // Absent: the check takes every answer inside what it covers as unread (pipeline/guard-request.ts).
    expect(decodePreparationClaim(roundTrip({ ...stored, answers: [7] }))?.answers).toBeUndefined();
    expect(decodePreparationClaim(roundTrip({ ...stored, answers: 'k1' }))?.answers).toBeUndefined();
  });

  it('should name at most the bound of dropped facts read back, and count them all, from records of any writer', () => {
    const facts = Array.from({ length: 50 }, (_, i) => `Fact F-${i}.`);
    // Written before the count was kept: the list is all there is.
    const unbounded = decodeStoredPreparedSummary(
      roundTrip({ ...stored, droppedFacts: facts, droppedFactCount: undefined }),
    );
    expect(unbounded?.droppedFacts).toEqual(facts.slice(0, MAX_LISTED_DROPPED_FACTS));
    expect(unbounded?.droppedFactCount).toBe(50);
    const counted = decodeStoredPreparedSummary(roundTrip({ ...stored, droppedFactCount: 253 }));
    expect(counted?.droppedFactCount).toBe(253);
    expect(decodeStoredPreparedSummary(roundTrip({ ...stored, droppedFactCount: -4 }))?.droppedFactCount).toBe(1);
    // Review 30: an edited record reporting 9e15 dropped facts to the compaction record and onCompaction.
    const huge = decodeStoredPreparedSummary(roundTrip({ ...stored, droppedFactCount: Number.MAX_SAFE_INTEGER }));
    expect(huge?.droppedFactCount).toBe(1_000_000);
  });

  it('should refuse a record it cannot trust rather than apply part of it', () => {
    const broken: unknown[] = [
      null,
      'text',
      { ...stored, id: '' },
      { ...stored, id: 'x'.repeat(65) },
      { ...stored, watermark: { covered: 0, anchor: 'a' } },
      { ...stored, watermark: { covered: 3, anchor: 'a', kept: { at: 3, fingerprint: 'f' } } },
      { ...stored, startedAt: -1 },
      { ...stored, previous: 42 },
      { ...stored, record: { ...record, text: '' } },
      { ...stored, outcome: { ok: false, kind: 42 } },
      { ...stored, currentRequest: 7 },
    ];
    for (const value of broken) expect(decodeStoredPreparedSummary(value), JSON.stringify(value)).toBeUndefined();
    expect(decodePreparationClaim({ ...stored, watermark: undefined })).toBeUndefined();
  });

  it('should keep a failure as its kind only: its text may quote the conversation', () => {
    const failed = { ...stored, outcome: { ok: false, kind: 'timeout', reason: 'secret text' } };
    expect(decodeStoredPreparedSummary(failed)?.outcome).toEqual({ ok: false, kind: 'timeout' });
  });

  it('should store a failure kind added later as one an older release reads, and read it back exactly', () => {
    // Review 55: an older replica decoded `cut` as no summary, kept waiting for it and summarized again 15 s later.
    const readByOlderReleases = ['timeout', 'failed', 'empty', 'unavailable'];
    const summary = restorePrepared({ ...stored, outcome: { ok: false, kind: 'empty' } });
    const cut = storePrepared(stored, { ...summary, outcome: { ok: false, kind: 'cut', reason: 'cut short' } });
    const written = roundTrip(cut) as { outcome: { kind: string } };
    expect(readByOlderReleases).toContain(written.outcome.kind);
    expect(decodeStoredPreparedSummary(written)?.outcome).toEqual({ ok: false, kind: 'cut' });
    expect(restorePrepared(cut).outcome).toMatchObject({ ok: false, kind: 'cut' });
  });

  it('should read a failure of a kind it does not know as a failure, not as no summary', () => {
    const later = { ...stored, outcome: { ok: false, kind: 'a-kind-of-a-later-release' } };
    expect(decodeStoredPreparedSummary(roundTrip(later))?.outcome).toEqual({ ok: false, kind: 'failed' });
  });

  it('should tell two summaries apart by any of time, watermark, anchor or text', () => {
    const identity = summaryIdentity(record);
    expect(summaryIdentity({ ...record })).toBe(identity);
    expect(summaryIdentity({ ...record, createdAt: record.createdAt + 1 })).not.toBe(identity);
    expect(summaryIdentity({ ...record, covered: 7 })).not.toBe(identity);
    expect(summaryIdentity({ ...record, anchor: 'other' })).not.toBe(identity);
    expect(summaryIdentity({ ...record, text: 'Summary!' })).not.toBe(identity);
    expect(summaryIdentity(undefined)).toBeUndefined();
  });
});
