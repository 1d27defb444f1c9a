import { describe, expect, it } from 'vitest';
import { userText } from '../../test/support/builders.js';
import type { SummaryOutcome } from '../compaction/summarizer.js';
import { RECORD_VERSION } from '../state/guard-state.js';
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
    const text = 'A summary of eight words, give or take.';
    const facts = [{ text: 'port 8080', addedAt: 2, lastSeen: 2 }];
    const outcome = buildCompactionOutcome({
      reason: 'threshold',
      coveredFrom: 3,
      split: { coverage: { covered: 9, keptAt: 6 }, toCover: [3, 4, 5, 7, 8] },
      summarized: {
        text,
        outcome: { ok: false, kind: 'empty', reason: 'returned no text' },
        summarizedContents: [userText('x')],
        currentRequest: undefined,
        droppedContents: 2,
      },
      summary: {
        record: {
          version: RECORD_VERSION,
          text,
          covered: 9,
          anchor: 'a',
          compactions: 2,
          fallback: true,
          createdAt: 0,
          facts,
        },
        droppedFacts: ['old fact'],
      },
      tokensBefore: 8_700,
      tokensAfter: 3_100,
    });
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
      summaryChars: text.length,
      facts: 1,
      droppedFacts: ['old fact'],
    });
  });
});
