/**
 * The steps of one compaction, as the core hands them to `buildCompactionOutcome`: contents
 * 3..9 covered, the user's message at 6 kept, one durable fact carried and one dropped.
 */
import type { SummaryOutcome } from '../../src/summary/summarizer.js';
import type { CompactionSteps } from '../../src/pipeline/compaction-outcome.js';
import { RECORD_VERSION } from '../../src/state/codec.js';

export const STEPS_SUMMARY_TEXT = 'A summary of eight words, give or take.';

export function compactionSteps(verdict: SummaryOutcome): CompactionSteps {
  const text = STEPS_SUMMARY_TEXT;
  return {
    reason: 'threshold',
    coveredFrom: 3,
    split: { coverage: { covered: 9, keptAt: 6 }, toCover: [3, 4, 5, 7, 8] },
    summary: {
      record: {
        version: RECORD_VERSION,
        text,
        covered: 9,
        anchor: 'a',
        compactions: 2,
        fallback: !verdict.ok,
        createdAt: 0,
        facts: [{ text: 'port 8080', addedAt: 2, lastSeen: 2 }],
      },
      droppedFacts: ['old fact'],
      droppedFactCount: 1,
      outcome: verdict,
      droppedContents: 2,
    },
    tokensBefore: 8_700,
    tokensAfter: 3_100,
  };
}
