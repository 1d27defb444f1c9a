import { describe, expect, it } from 'vitest';
import { usageRecord } from '../../test/support/builders.js';
import { decideWindow } from './learned-window.js';
import { rejectionOutcome } from './provider-feedback.js';
import { recordRejectedSize, rejectedBound, rejectedMeasure } from './rejected-bound.js';
import { decodeUsageRecord } from './stored-usage.js';

const DEFAULT_WINDOW = { window: 128_000, source: 'default', model: 'm' } as const;
const STATED_ZERO = 'The input token count (9321) exceeds the maximum number of tokens allowed (0).';

describe('rejectedMeasure', () => {
  it("should add what the agent's callbacks added beyond what was carried to the calibrated measure", () => {
    // 6,000 calibrated; the callbacks' 2,000 replaced a carried 500: +1,500
    const stored = usageRecord({ lastCalibrated: 6_000, sentEstimate: 4_000, agentAddedTokens: 500 });
    expect(rejectedMeasure(stored, { ...stored, sentEstimate: 5_500 })).toBe(7_500);
    expect(rejectedMeasure(stored, stored)).toBe(6_000);
  });

  it('should measure nothing before the guard measured a request', () => {
    expect(rejectedMeasure(usageRecord(), usageRecord())).toBeUndefined();
  });
});

describe('recordRejectedSize', () => {
  it("should keep the smallest rejected measure for the model, and show it as the session's window", () => {
    const first = recordRejectedSize(usageRecord({ window: 128_000 }), 'models/m', 9_300, 1_024);
    expect(first).toMatchObject({ rejectedTokens: 9_300, rejectedModel: 'm', window: 9_300, windowSource: 'learned' });
    expect(recordRejectedSize(first, 'm', 12_000, 1_024).rejectedTokens).toBe(9_300);
    expect(recordRejectedSize(first, 'm', 8_500, 1_024).rejectedTokens).toBe(8_500);
  });

  it('should not bound below 1,024 or a request the model accepted', () => {
    expect(recordRejectedSize(usageRecord(), 'm', 900, 1_024).rejectedTokens).toBeUndefined();
    expect(recordRejectedSize(usageRecord(), 'm', 5_000, 6_000).rejectedTokens).toBeUndefined();
  });

  it("should replace another model's bound", () => {
    const other = usageRecord({ rejectedTokens: 3_000, rejectedModel: 'other' });
    expect(recordRejectedSize(other, 'm', 9_000, 1_024)).toMatchObject({ rejectedTokens: 9_000, rejectedModel: 'm' });
  });
});

describe('rejectedBound', () => {
  it('should hold for its own model only, and not below a request the model accepted since', () => {
    const usage = usageRecord({ rejectedTokens: 9_000, rejectedModel: 'm' });
    expect(rejectedBound(usage, 'm', 1_024)).toBe(9_000);
    expect(rejectedBound(usage, 'other', 1_024)).toBeUndefined();
    expect(rejectedBound(usage, 'm', 9_500)).toBeUndefined();
  });

  it('should drop a bound read back from state that is not a whole count of at least 1,024', () => {
    expect(decodeUsageRecord({ rejectedTokens: 500, rejectedModel: 'm' }).rejectedTokens).toBeUndefined();
    expect(decodeUsageRecord({ rejectedTokens: 9_000 }).rejectedTokens).toBeUndefined();
    expect(decodeUsageRecord({ rejectedTokens: 9_000, rejectedModel: 'm' }).rejectedTokens).toBe(9_000);
  });
});

describe('a rejection that states no maximum the guard reads', () => {
  it("should bound the window by the guard's measure, not by any figure of the text", () => {
    const usage = usageRecord({ sentEstimate: 6_000, lastCalibrated: 9_000 });
    const outcome = rejectionOutcome(usage, STATED_ZERO, 'm', undefined, 9_000);
    expect(outcome).toMatchObject({ learned: undefined, bounded: 9_000 });
    expect(outcome.usage).toMatchObject({ rejectedTokens: 9_000, window: 9_000, windowSource: 'learned' });
  });

  it('should not bound the window below a maximum the provider states and the guard believes', () => {
    // Calibrated low by a small first turn, the request was ~14,036 by the guard's measure; Gemini counted 16,476.
    const usage = usageRecord({ sentEstimate: 13_755, lastCalibrated: 14_036 });
    const message = 'The input token count (16476) exceeds the maximum number of tokens allowed (16000).';
    const outcome = rejectionOutcome(usage, message, 'm', undefined, 14_036);
    expect(outcome.bounded).toBeUndefined();
    expect(outcome.usage.rejectedTokens).toBeUndefined();
    const option = { window: 16_000, source: 'override', model: 'm' } as const;
    expect(decideWindow(outcome.usage, { model: 'm', resolved: option }).window).toBe(16_000);
  });

  it('should bound the window when the prompt fits but the prompt and the completion it asked for do not (review 8)', () => {
    // vLLM's and OpenAI's words: the prompt (12,785) is under the maximum, the whole request is not.
    const usage = usageRecord({ sentEstimate: 12_000, lastCalibrated: 12_785, window: 64_000 });
    const message =
      "400 This model's maximum context length is 16384 tokens. However, you requested 16785 tokens " +
      '(12785 in the messages, 4000 in the completion). Please reduce the length of the messages or completion.';
    const outcome = rejectionOutcome(usage, message, 'm', undefined, 12_785);
    expect(outcome.notAbout).toBeUndefined();
    expect(outcome.bounded).toBeDefined();
  });

  it('should not bound the window when the size it states cannot be the request, or is not over its maximum', () => {
    // A spurious 400 (the eighth outside trial): a request of ~2,373 tokens said to be 16,298 over 16,000.
    const usage = usageRecord({ sentEstimate: 1_980, lastCalibrated: 2_373, window: 16_000 });
    for (const message of [
      'The input token count (16298) exceeds the maximum number of tokens allowed (16000).',
      'The input token count (2300) exceeds the maximum number of tokens allowed (16000).',
    ]) {
      const outcome = rejectionOutcome(usage, message, 'm', undefined, 2_373);
      expect(outcome.refused).toBeDefined();
      expect(outcome.bounded).toBeUndefined();
      expect(outcome.usage).toMatchObject({ window: 16_000, forceCompaction: true });
      expect(outcome.usage.rejectedTokens).toBeUndefined();
    }
  });

  it("should not bound the window when only a text that may quote the request or a user says 'too long'", () => {
    const usage = usageRecord({ sentEstimate: 2_000, lastCalibrated: 3_000, acceptedTokens: 2_800 });
    for (const message of [
      `Request rejected: "The input token count (5000) exceeds the maximum number of tokens allowed (1100)."`,
      'Invalid input: image too large, max 20 MB',
      'Request contains an invalid argument. The user said: "my prompt is too long, can you help"',
    ]) {
      const outcome = rejectionOutcome(usage, message, 'm', undefined, 3_000);
      // Still an overflow: the next call compacts; but the window stays what it was.
      expect(outcome.usage.forceCompaction).toBe(true);
      expect(outcome.usage.rejectedTokens).toBeUndefined();
      expect(outcome.bounded).toBeUndefined();
    }
  });

  it('should bound the window decided for that model, under an option too', () => {
    const usage = usageRecord({ rejectedTokens: 9_000, rejectedModel: 'm' });
    expect(decideWindow(usage, { model: 'm', resolved: DEFAULT_WINDOW })).toMatchObject({
      window: 9_000,
      origin: 'learned',
      bounded: true,
    });
    expect(
      decideWindow(usage, { model: 'm', resolved: { window: 32_000, source: 'override', model: 'm' } }),
    ).toMatchObject({ window: 9_000, origin: 'learned', overriddenOption: 32_000 });
    // A smaller stated maximum stays the window; another model's request is not bounded.
    expect(
      decideWindow(
        { ...usage, learnedWindow: 8_000, learnedWindowModel: 'm' },
        { model: 'm', resolved: DEFAULT_WINDOW },
      ),
    ).toMatchObject({ window: 8_000, bounded: false });
    expect(decideWindow(usage, { model: 'other', resolved: DEFAULT_WINDOW }).window).toBe(128_000);
  });
});
