/**
 * A rejection of a prompt over the window in words other than Gemini's, OpenAI's or Anthropic's, through a real
 * Runner: a first message at 60% of the window by the estimate (90% at the default correction: sent whole) to a
 * provider that counts 1.7 tokens for each estimated one. The rejection must be retried inside the call with the
 * message cut: before, these wordings were not read as an overflow, and the rejection reached the user as an error
 * event (found by the review of the first-call change, design.md "The first call, before any real count").
 */
import { LogLevel, setLogLevel } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { firstMessageRejected, REJECTING_WINDOW as WINDOW } from '../support/first-message-rejected.js';

setLogLevel(LogLevel.ERROR);

/** How providers other than Gemini, OpenAI and Anthropic word a prompt over their window (no count stated). */
const WORDINGS: Record<string, string> = {
  'llama.cpp server': '400 the request exceeds the available context size, try increasing it',
  Groq: '400 Please reduce the length of the messages or completion.',
  'vLLM (older) and Mistral':
    'Prompt contains 17000 tokens and 0 draft tokens, too large for model with 16000 maximum context length',
  'llama-cpp-python': 'Requested tokens (17000) exceed context window of 16000',
};

describe("a rejection of a session's first message, in other providers' words", () => {
  for (const [provider, wording] of Object.entries(WORDINGS)) {
    it(`should be retried inside the call with the message cut, no error reaching the user (${provider})`, async () => {
      const { errors, model, status } = await firstMessageRejected(() => wording);
      expect(errors).toEqual([]);
      const [first, retried] = model.requests;
      expect(first!.promptTokens).toBeGreaterThan(WINDOW);
      expect(JSON.stringify(first!.contents)).toContain('MIDDLE-CLAUSE-7');
      expect(retried!.promptTokens).toBeLessThanOrEqual(WINDOW);
      expect({ rejected: status.rejectedCalls, retried: status.retriedCalls }).toEqual({ rejected: 1, retried: 1 });
    });
  }
});
