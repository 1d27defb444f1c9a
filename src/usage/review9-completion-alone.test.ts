/**
 * Review 9 on fa46105 (a prompt under the maximum whose completion takes it over is about the request): when the
 * completion asked for is alone over the maximum (max_tokens set above the window), no prompt can fit, and each
 * rejection bounded the session's window at the size sent: 3,000, then 2,000, then 1,200 tokens, kept after the
 * setting is fixed. Such a rejection says nothing of the window: it bounds nothing.
 */
import { describe, expect, it } from 'vitest';
import { rejectionOutcome } from './provider-feedback.js';
import { EMPTY_USAGE } from './stored-usage.js';

const rejection = (prompt: number, completion: number) =>
  `400 This model's maximum context length is 16384 tokens. However, you requested ${prompt + completion} tokens (${prompt} in the messages, ${completion} in the completion). Please reduce the length of the messages or completion.`;

describe('review 9: a completion alone over the maximum', () => {
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
