import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROPERTY_RUNS, usageRecordArbitrary } from '../../test/support/arbitraries.js';
import { usageRecord } from '../../test/support/builders.js';
import { recordAccepted } from './learned-window.js';
import {
  countBeyondWindow,
  recordRejection,
  recordReportedUsage,
  rejectionOutcome,
  summaryRejectionOutcome,
} from './provider-feedback.js';
import type { ReportedUsage } from './reported-usage.js';

const SENT = usageRecord({ sentEstimate: 2_000, modelCalls: 3 });
const GEMINI_OVERFLOW = 'The input token count (1234567) exceeds the maximum number of tokens allowed (1048576).';

describe('recordReportedUsage', () => {
  describe('missing, partial or nonsensical usage', () => {
    it('should return the very same record without usage', () => {
      expect(recordReportedUsage(SENT, undefined)).toBe(SENT);
      expect(recordReportedUsage(SENT, {})).toBe(SENT);
    });

    it('should ignore counts that are not positive integers below 100 million', () => {
      for (const promptTokenCount of [
        0,
        -5,
        1.5,
        Number.NaN,
        Number.POSITIVE_INFINITY,
        '3000',
        null,
        100_000_000,
        1e12,
      ]) {
        // Typed as ADK types it; a custom model may send anything.
        expect(recordReportedUsage(SENT, { promptTokenCount } as ReportedUsage)).toBe(SENT);
      }
    });

    it('should record only the output of a partial chunk that reports no prompt count', () => {
      expect(recordReportedUsage(SENT, { candidatesTokenCount: 40 })).toEqual({ ...SENT, outputTokens: 40 });
    });

    it('should not calibrate when no estimate of the request was stored', () => {
      const unsent = usageRecord();
      expect(recordReportedUsage(unsent, { promptTokenCount: 3_000 })).toBe(unsent);
    });
  });

  describe('real counts', () => {
    it('should pair the real count with the estimate of the same request and learn the correction', () => {
      // 3,000 / 2,000 = 1.5
      expect(recordReportedUsage(SENT, { promptTokenCount: 3_000, candidatesTokenCount: 40 })).toEqual({
        ...SENT,
        realPromptTokens: 3_000,
        lastEstimate: 2_000,
        learnedCorrection: 1.5,
        outputTokens: 40,
      });
    });

    it("should keep the estimator's framing of that request with the pair", () => {
      const small = { ...SENT, sentEstimate: 1_200, sentFraming: 200 };
      expect(recordReportedUsage(small, { promptTokenCount: 1_300 })).toMatchObject({
        lastEstimate: 1_200,
        lastFraming: 200,
      });
      const rejection = 'The input token count (1300) exceeds the maximum number of tokens allowed (1000).';
      expect(recordRejection(small, rejection)).toMatchObject({ lastEstimate: 1_200, lastFraming: 200 });
    });

    it('should keep the pair of the larger request when the answered one is a fresh start under half its size', () => {
      // A Workflow node's turn starts again from its input: the small first call is mostly instruction and tools.
      const paired = {
        ...SENT,
        realPromptTokens: 2_500,
        lastEstimate: 2_000,
        lastFraming: 30,
        learnedCorrection: 1.25,
      };
      const fresh = { ...paired, sentEstimate: 999, sentFraming: 30 };
      expect(recordReportedUsage(fresh, { promptTokenCount: 1_900, candidatesTokenCount: 40 })).toEqual({
        ...fresh,
        outputTokens: 40,
      });
      // At half the size or more it continues the history: the new pair replaces the old.
      const half = { ...paired, sentEstimate: 1_000, sentFraming: 30 };
      expect(recordReportedUsage(half, { promptTokenCount: 1_900 })).toMatchObject({
        realPromptTokens: 1_900,
        lastEstimate: 1_000,
      });
      // With no pair (the first call, or after a compaction cleared it) any request is paired.
      const cleared = { ...fresh, realPromptTokens: undefined, lastEstimate: undefined };
      expect(recordReportedUsage(cleared, { promptTokenCount: 1_900 })).toMatchObject({ lastEstimate: 999 });
    });

    it('should clamp the learned correction to [1, 5]', () => {
      // 20,000 / 2,000 = 10 → 5; 1,000 / 2,000 = 0.5 → 1
      expect(recordReportedUsage(SENT, { promptTokenCount: 20_000 }).learnedCorrection).toBe(5);
      expect(recordReportedUsage(SENT, { promptTokenCount: 1_000 }).learnedCorrection).toBe(1);
    });
  });

  describe('laws', () => {
    it('should never touch the counters', () => {
      fc.assert(
        fc.property(
          usageRecordArbitrary,
          fc.record({ promptTokenCount: fc.anything(), candidatesTokenCount: fc.anything() }, { requiredKeys: [] }),
          (usage, reported) => {
            const next = recordReportedUsage(usage, reported as ReportedUsage);
            expect([next.modelCalls, next.compactions, next.rejectedCalls, next.forceCompaction]).toEqual([
              usage.modelCalls,
              usage.compactions,
              usage.rejectedCalls,
              usage.forceCompaction,
            ]);
          },
        ),
        PROPERTY_RUNS,
      );
    });
  });
});

describe('recordRejection', () => {
  describe('errors that are not about the prompt size', () => {
    it('should return the very same record', () => {
      expect(recordRejection(SENT, 'Internal error encountered.')).toBe(SENT);
    });
  });

  describe('prompt-too-long rejections', () => {
    it('should force the next compaction, count the rejection and calibrate from the stated size', () => {
      // 1,234,567 / 300,000 = 4.1
      const sent = usageRecord({ sentEstimate: 300_000, modelCalls: 3 });
      expect(recordRejection(sent, GEMINI_OVERFLOW)).toEqual({
        ...sent,
        realPromptTokens: 1_234_567,
        lastEstimate: 300_000,
        learnedCorrection: 1_234_567 / 300_000,
        rejectedCalls: 1,
        forceCompaction: true,
        learnedWindow: 1_048_576,
        learnedWindowModel: '',
        // Shown as the window until the next call measures against it.
        window: 1_048_576,
        windowSource: 'learned',
      });
    });

    it('should not take a number as a window unless the message says the request went over a token maximum', () => {
      // Not about tokens, or a maximum the stated prompt did not pass, or too small to be a window.
      for (const message of [
        'The document is too large: the model only supports up to 1000 pages.',
        'The input token count is 900 but model only supports up to 1000 characters.',
        "This model's maximum context length is 300 tokens. However, you requested 500 tokens.",
        'The input token count (7000) exceeds the maximum number of tokens allowed (8000).',
      ]) {
        expect(recordRejection(SENT, message, 'model-x').learnedWindow, message).toBeUndefined();
      }
      expect(
        recordRejection(
          SENT,
          'The input token count (9123) exceeds the maximum number of tokens allowed (8000).',
          'model-x',
        ).learnedWindow,
      ).toBe(8_000);
    });

    it('should read the prompt of an OpenAI-style message from either wording', () => {
      const messages =
        "This model's maximum context length is 128000 tokens. However, you requested 130000 tokens (125000 in the messages, 5000 in the completion).";
      expect(recordRejection(usageRecord({ sentEstimate: 100_000 }), messages).realPromptTokens).toBe(125_000);
    });

    it('should neither calibrate nor learn from a stated size that cannot be the request sent', () => {
      // 1,234,567 tokens stated for a request estimated at 2,000: the statement is about something else.
      const next = rejectionOutcome(SENT, GEMINI_OVERFLOW, 'model-x');
      expect(next).toEqual({
        usage: { ...SENT, rejectedCalls: 1, forceCompaction: true },
        refused: 'size-inconsistent',
        notAbout: true,
      });
    });

    it('should not learn a maximum below a request the same model accepted, in the session or in the process', () => {
      const message = 'The input token count (9123) exceeds the maximum number of tokens allowed (8000).';
      const sent = usageRecord({ sentEstimate: 7_000 });
      const acceptedHere = recordAccepted(sent, 'model-x', 8_500);
      expect(rejectionOutcome(acceptedHere, message, 'model-x').refused).toBe('below-accepted');
      expect(rejectionOutcome(sent, message, 'model-x', { tokens: 8_001 }).refused).toBe('below-accepted');
      // Accepted by another model: no bound.
      expect(rejectionOutcome(recordAccepted(sent, 'model-y', 8_500), message, 'model-x').learned).toBe(8_000);
      // An accepted estimate counts at the stated size's ratio when that is below 1 (9,123 / 7,000 is not).
      expect(rejectionOutcome(sent, message, 'model-x', { estimate: 8_001 }).refused).toBe('below-accepted');
      const smallRatio = 'The input token count (9123) exceeds the maximum number of tokens allowed (8000).';
      expect(
        rejectionOutcome(usageRecord({ sentEstimate: 18_246 }), smallRatio, 'model-x', { estimate: 12_000 }).learned,
      ).toBe(8_000);
    });

    it("should not bound the window where the maximum is a smaller routed member's: a failover went to it", () => {
      const message = 'The input token count (12300) exceeds the maximum number of tokens allowed (8000).';
      const routed = 'RoutedLlm[large (scripted-large), small (scripted-small)]';
      const accepted = recordAccepted(usageRecord({ sentEstimate: 10_000 }), routed, 9_000);
      const failover = rejectionOutcome(accepted, message, routed, undefined, 10_250, (limit) => limit === 8_000);
      expect(failover).toMatchObject({ refused: 'below-accepted', failover: 8_000 });
      expect(failover.bounded).toBeUndefined();
      expect(failover.usage.rejectedTokens).toBeUndefined();
      // No member of that window: bounded below the rejected request, as before.
      const unknown = rejectionOutcome(accepted, message, routed, undefined, 10_250, () => false);
      expect(unknown).toMatchObject({ refused: 'below-accepted', bounded: 10_250 });
      // Nothing larger accepted yet, the window set above it (contextWindow): a failover too, nothing learned.
      const set = usageRecord({ sentEstimate: 10_000, window: 32_000, windowSource: 'option' });
      const first = rejectionOutcome(set, message, routed, undefined, 10_250, (limit) => limit === 8_000);
      expect(first).toMatchObject({ failover: 8_000 });
      expect([first.learned, first.bounded, first.usage.learnedWindow]).toEqual([undefined, undefined, undefined]);
      // A window learned or guessed is no statement of the user's: the maximum is learned as before.
      const guessed = usageRecord({ sentEstimate: 10_000, window: 32_000, windowSource: 'default' });
      expect(rejectionOutcome(guessed, message, routed, undefined, 10_250, (limit) => limit === 8_000).learned).toBe(
        8_000,
      );
    });

    it('should keep the stated maximum as the window of the model that was called', () => {
      const next = recordRejection(
        SENT,
        JSON.stringify({
          error: {
            code: 400,
            message: 'The input token count (9123) exceeds the maximum number of tokens allowed (8000).',
          },
        }),
        'models/My-Model@001',
      );
      expect({ window: next.learnedWindow, model: next.learnedWindowModel }).toEqual({
        window: 8_000,
        model: 'my-model',
      });
    });

    it('should learn an unclamped correction from a stated size', () => {
      const sent = usageRecord({ sentEstimate: 1_000_000 });
      // 1,234,567 / 1,000,000 = 1.234567
      expect(recordRejection(sent, GEMINI_OVERFLOW).learnedCorrection).toBeCloseTo(1.234567, 6);
    });

    it('should force the next compaction without calibrating when no size is stated', () => {
      expect(recordRejection(SENT, 'Request failed: prompt is too long for this model.')).toEqual({
        ...SENT,
        rejectedCalls: 1,
        forceCompaction: true,
      });
    });

    it('should not calibrate when no estimate of the request was stored', () => {
      const next = recordRejection(usageRecord(), GEMINI_OVERFLOW);
      expect(next).toMatchObject({ rejectedCalls: 1, forceCompaction: true });
      expect(next.realPromptTokens).toBeUndefined();
    });
  });
});

describe('summaryRejectionOutcome', () => {
  const summaryOverflow = (size: number) =>
    `The input token count (${size}) exceeds the maximum number of tokens allowed (64000).`;

  it("should learn the window and calibrate from the summary request's own estimate, keeping the agent's pair and counts", () => {
    // The agent's last request was estimated at 50,000; the summary request at 55,000 and stated at 66,000.
    const usage = usageRecord({ sentEstimate: 50_000, realPromptTokens: 60_000, lastEstimate: 50_000, modelCalls: 4 });
    const outcome = summaryRejectionOutcome(usage, summaryOverflow(66_000), 55_000, 'scripted-model', undefined);
    expect(outcome.learned).toBe(64_000);
    expect(outcome.usage).toEqual({
      ...usage,
      learnedCorrection: 66_000 / 55_000,
      correctionModel: 'scripted-model',
      learnedWindow: 64_000,
      learnedWindowModel: 'scripted-model',
      window: 64_000,
      windowSource: 'learned',
    });
  });

  it('should refuse a stated size that cannot be the summary request, as for an agent call', () => {
    // 66,000 stated for a request estimated at 5,000: over the 8x the estimate allows.
    const usage = usageRecord({ sentEstimate: 60_000 });
    const outcome = summaryRejectionOutcome(usage, summaryOverflow(66_000), 5_000, 'scripted-model', undefined);
    expect(outcome).toEqual({ usage, refused: 'size-inconsistent', notAbout: true });
  });

  it("should bound the window by the summary request's size when the rejection states no maximum (Bedrock's words)", () => {
    const usage = usageRecord({ sentEstimate: 3_000 });
    const outcome = summaryRejectionOutcome(
      usage,
      'ValidationException: Input is too long for requested model.',
      8_850,
      'claude-3-5-haiku',
      undefined,
    );
    expect(outcome.learned).toBeUndefined();
    expect(outcome.bounded).toBe(8_850);
    expect(outcome.usage).toMatchObject({ rejectedTokens: 8_850, window: 8_850, sentEstimate: 3_000 });
  });
});

describe('countBeyondWindow', () => {
  const on = (windowSource: 'option' | 'registry' | 'default' | 'learned') =>
    usageRecord({ sentEstimate: 2_000, window: 8_000, windowSource });

  it('should not calibrate from an accepted request counted beyond twice a window the guard knows', () => {
    // The thirty-third outside trial: 80,000 reported on an 8k window made the guard compact on 11 of 12 turns.
    for (const source of ['option', 'registry'] as const) {
      expect(countBeyondWindow(on(source), { promptTokenCount: 80_000 })).toBe(80_000);
      expect(recordReportedUsage(on(source), { promptTokenCount: 80_000 }).learnedCorrection).toBeUndefined();
    }
    expect(countBeyondWindow(on('option'), { promptTokenCount: 16_000 })).toBeUndefined();
    // Over twice the window but within a correction of what was sent: a window set below the model's (review 29).
    const capped = usageRecord({ sentEstimate: 4_200, window: 8_000, windowSource: 'option' });
    expect(countBeyondWindow(capped, { promptTokenCount: 20_139 })).toBeUndefined();
    expect(recordReportedUsage(capped, { promptTokenCount: 20_139 }).learnedCorrection).toBeCloseTo(4.795, 2);
    expect(recordReportedUsage(on('option'), { promptTokenCount: 2_400 }).learnedCorrection).toBeCloseTo(1.2);
  });

  it("should believe it on a window the guard only assumed or learned, which may be smaller than the model's", () => {
    expect(countBeyondWindow(on('default'), { promptTokenCount: 80_000 })).toBeUndefined();
    expect(countBeyondWindow(on('learned'), { promptTokenCount: 80_000 })).toBeUndefined();
    expect(recordReportedUsage(on('default'), { promptTokenCount: 4_000 }).learnedCorrection).toBeCloseTo(2);
  });
});
