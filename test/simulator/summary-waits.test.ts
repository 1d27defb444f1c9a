import { describe, expect, it } from 'vitest';
import { summaryWaits, type SummaryCallFacts } from '../../simulator/summary-waits.js';

const LATENCY = { modelMs: 150, summarizerMs: 400 };
const call = (turn: number, compacted = false): SummaryCallFacts => ({ turn, compacted });

describe('summaryWaits', () => {
  it('should make a call wait for the whole summary made in it', () => {
    expect(summaryWaits([call(1), call(2, true), call(3)], [1], LATENCY)).toEqual({
      waitMs: [0, 400, 0],
      turnsWaited: 1,
      addedMs: 400,
    });
  });

  it('should not wait for a compaction without a summarizer call (the mechanical fallback, a masking)', () => {
    expect(summaryWaits([call(1, true)], [], LATENCY).addedMs).toBe(0);
  });

  it('should wait only for what is left of a summary prepared one call ahead', () => {
    // Started during call 0 (ready at 400); applied by call 1, which starts at 150.
    expect(summaryWaits([call(1), call(1, true)], [0], LATENCY).waitMs).toEqual([0, 250]);
  });

  it('should not wait for a summary prepared three calls ahead', () => {
    expect(summaryWaits([call(1), call(1), call(2), call(2, true)], [0], LATENCY)).toEqual({
      waitMs: [0, 0, 0, 0],
      turnsWaited: 0,
      addedMs: 0,
    });
  });

  it('should count a turn once however many of its calls waited', () => {
    expect(summaryWaits([call(1, true), call(1, true)], [0, 1], LATENCY).turnsWaited).toBe(1);
  });
});
