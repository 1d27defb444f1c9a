import { describe, expect, it } from 'vitest';
import { decodeCompactionRecord } from './compaction-record.js';
import { MAX_LISTED_DROPPED_FACTS } from '../summary/dropped-facts.js';

const stored = {
  id: 'c1',
  agentName: 'worker',
  tokensBefore: 9_000,
  tokensAfter: 3_000,
  coveredContents: { from: 0, to: 40 },
  coveredEvents: { count: 40 },
  durationMs: 12,
};

describe('decodeCompactionRecord', () => {
  it('should name at most the bound of dropped facts of a record written before the cap, and count them all', () => {
    // Review 30: a record of 253 dropped facts, written before they were capped, shown whole in status().
    const facts = Array.from({ length: 253 }, (_, i) => `Fact F-${i}.`);
    const record = decodeCompactionRecord({ ...stored, droppedFacts: facts });
    expect(record?.droppedFacts).toEqual(facts.slice(0, MAX_LISTED_DROPPED_FACTS));
    expect(record?.droppedFactCount).toBe(253);
  });

  it('should keep a count at least the names it lists, and read names that are not text as none', () => {
    const named = ['Fact A.', 7, 'Fact B.'];
    expect(decodeCompactionRecord({ ...stored, droppedFacts: named, droppedFactCount: 40 })).toMatchObject({
      droppedFacts: ['Fact A.', 'Fact B.'],
      droppedFactCount: 40,
    });
    expect(decodeCompactionRecord({ ...stored, droppedFacts: named, droppedFactCount: -1 })?.droppedFactCount).toBe(2);
    expect(decodeCompactionRecord({ ...stored, droppedFacts: 'many' })).toMatchObject({
      droppedFacts: [],
      droppedFactCount: 0,
    });
  });
});
