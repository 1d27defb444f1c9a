/**
 * A completion asked for that is alone over the maximum (max_tokens set above the window; found by review 9): no
 * prompt can fit, and each rejection bounded the session's window at the size sent (3,000, then 2,000, then 1,200
 * tokens, kept after the setting was fixed). Such a rejection says nothing of the window: it bounds nothing.
 */
import { describe, expect, it } from 'vitest';
import { rejectionOutcome } from './provider-feedback.js';
import { EMPTY_USAGE } from './stored-usage.js';

const rejection = (prompt: number, completion: number) =>
  `400 This model's maximum context length is 16384 tokens. However, you requested ${prompt + completion} tokens (${prompt} in the messages, ${completion} in the completion). Please reduce the length of the messages or completion.`;

describe('a completion alone over the maximum', () => {
  it('should not bound the window by the request sent', () => {
    const outcome = rejectionOutcome(
      { ...EMPTY_USAGE, sentEstimate: 3_000 },
      rejection(3_000, 17_000),
      'm',
      undefined,
      3_000,
    );
    expect(outcome.bounded).toBeUndefined();
    expect(outcome.usage.rejectedTokens).toBeUndefined();
  });

  it('should still bound it when the prompt and a completion under the maximum go over it (fa46105)', () => {
    const outcome = rejectionOutcome(
      { ...EMPTY_USAGE, sentEstimate: 14_000 },
      rejection(14_000, 4_000),
      'm',
      undefined,
      14_000,
    );
    expect(outcome.bounded).toBe(14_000);
  });
});
