import { describe, expect, it } from 'vitest';
import { compactionSteps, STEPS_SUMMARY_TEXT } from '../../test/support/compaction-steps.js';
import type { SummaryOutcome } from '../summary/summarizer.js';
import { buildCompactionOutcome, summarizerReport } from './compaction-outcome.js';

describe('summarizerReport', () => {
  it('should report a real summary with its counts', () => {
    const outcome: SummaryOutcome = { ok: true, text: 't', truncated: true, promptTokens: 900, outputTokens: 80 };
    expect(summarizerReport(outcome)).toEqual({
      fallback: false,
      summaryTruncated: true,
      summarizerPromptTokens: 900,
      summarizerOutputTokens: 80,
    });
  });

  it('should report a failure as a fallback with its kind and details', () => {
    const outcome: SummaryOutcome = { ok: false, kind: 'timeout', reason: 'timed out after 5 ms' };
    expect(summarizerReport(outcome)).toEqual({
      fallback: true,
      fallbackReason: 'timeout',
      fallbackDetail: 'timed out after 5 ms',
      summaryTruncated: false,
    });
  });
});

describe('buildCompactionOutcome', () => {
  it('should assemble the outcome from the split, the verdict and the new summary', () => {
    const outcome = buildCompactionOutcome(compactionSteps({ ok: false, kind: 'empty', reason: 'returned no text' }));
    expect(outcome).toEqual({
      reason: 'threshold',
      coveredContents: { from: 3, to: 9 },
      keptAt: 6,
      tokensBefore: 8_700,
      tokensAfter: 3_100,
      compressionRatio: 2.81,
      fallback: true,
      fallbackReason: 'empty',
      fallbackDetail: 'returned no text',
      summaryTruncated: false,
      droppedFromSummarizerInput: 2,
      summaryChars: STEPS_SUMMARY_TEXT.length,
      facts: 1,
      droppedFacts: ['old fact'],
      droppedFactCount: 1,
      prepared: false,
    });
  });
});
