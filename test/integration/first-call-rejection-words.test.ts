/**
 * A rejection of a prompt over the window in words other than Gemini's, OpenAI's or Anthropic's, through a real
 * Runner: a first message at 60% of the window by the estimate (90% at the default correction: sent whole) to a
 * provider that counts 1.7 tokens for each estimated one. The rejection must be retried inside the call with the
 * message cut: before, these wordings were not read as an overflow, and the rejection reached the user as an error
 * event (found by the review of the first-call change, design.md "The first call, before any real count").
 */
import { InMemorySessionService, LlmAgent, LogLevel, Runner, setLogLevel } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard, tiktokenTokenizer } from '../../src/index.js';
import { CapturingLogger, ScriptedLlm, ScriptedSummarizerLlm } from '../../src/testing/index.js';
import { payloadText } from '../support/payloads.js';
import { proportionalCounter } from '../support/proportional-counter.js';

setLogLevel(LogLevel.ERROR);

const WINDOW = 16_000;

/** How providers other than Gemini, OpenAI and Anthropic word a prompt over their window (no count stated). */
const WORDINGS: Record<string, string> = {
  'llama.cpp server': '400 the request exceeds the available context size, try increasing it',
  Groq: '400 Please reduce the length of the messages or completion.',
  'vLLM (older) and Mistral':
    'Prompt contains 17000 tokens and 0 draft tokens, too large for model with 16000 maximum context length',
  'llama-cpp-python': 'Requested tokens (17000) exceed context window of 16000',
};

/** A pasted document of about `share` of the window by the guard's estimate, with a marked middle. */
function pasted(share: number): string {
  for (let chars = 15_000; ; chars += 200) {
    const text = `Contract: ${payloadText('prose', chars, 1)} MIDDLE-CLAUSE-7 ${payloadText('prose', 15_000, 2)} END`;
    if (tiktokenTokenizer.count(text) >= WINDOW * share) return text;
  }
}

async function firstTurn(wording: string) {
  const logger = new CapturingLogger();
  const model = new ScriptedLlm({
    window: Number.MAX_SAFE_INTEGER,
    countTokens: proportionalCounter(1.7),
    script: ({ index }) => ({ content: { role: 'model', parts: [{ text: `Answer ${index}` }] } }),
    fail: ({ promptTokens }) => (promptTokens > WINDOW ? new Error(wording) : undefined),
  });
  const guard = new ContextGuard({
    contextWindow: WINDOW,
    summarizer: new ScriptedSummarizerLlm(),
    modelWindows: { 'scripted-summarizer': 32_000 },
    logger,
  });
  const agent = new LlmAgent({ name: 'worker', model, instruction: 'You analyse documents.' });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: 'words', agent, sessionService, plugins: [guard] });
  const session = await sessionService.createSession({ appName: 'words', userId: 'u' });
  const errors: string[] = [];
  const newMessage = { role: 'user', parts: [{ text: pasted(0.6) }] };
  for await (const event of runner.runAsync({ userId: 'u', sessionId: session.id, newMessage }))
    if (event.errorCode) errors.push(`${event.errorCode}`);
  const stored = await sessionService.getSession({ appName: 'words', userId: 'u', sessionId: session.id });
  return { errors, model, status: guard.status(stored!, 'worker') };
}

describe("a rejection of a session's first message, in other providers' words", () => {
  for (const [provider, wording] of Object.entries(WORDINGS)) {
    it(`should be retried inside the call with the message cut, no error reaching the user (${provider})`, async () => {
      const { errors, model, status } = await firstTurn(wording);
      expect(errors).toEqual([]);
      const [first, retried] = model.requests;
      expect(first!.promptTokens).toBeGreaterThan(WINDOW);
      expect(JSON.stringify(first!.contents)).toContain('MIDDLE-CLAUSE-7');
      expect(retried!.promptTokens).toBeLessThanOrEqual(WINDOW);
      expect({ rejected: status.rejectedCalls, retried: status.retriedCalls }).toEqual({ rejected: 1, retried: 1 });
    });
  }
});
