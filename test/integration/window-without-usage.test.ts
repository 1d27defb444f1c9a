/**
 * A provider that counts fewer tokens than the guard's estimate and reports no usage (or only on some calls): its
 * rejections state the maximum, and the guard must keep it. The twenty-third outside trial saw the stated 8,192
 * refused wherever an accepted request's estimate (not a count) was larger: the window shown as the registry's
 * 1,048,576 or a made-up 10,702, a warning that the model "accepted a larger request", and 2-10 rejections where one
 * teaches the window.
 */
import { InMemorySessionService, LlmAgent, Runner } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard, tiktokenTokenizer } from '../../src/index.js';
import { CapturingLogger, ScriptedLlm, tokenizerTokenCounter } from '../../src/testing/index.js';
import { APP_NAME, userMessage } from '../support/agent-harness.js';

const MAXIMUM = 8_192;
const estimate = tokenizerTokenCounter(tiktokenTokenizer);

async function run(reportUsage: boolean | ((index: number) => boolean)) {
  const model = new ScriptedLlm({
    model: 'gemini-2.5-flash',
    window: MAXIMUM,
    // The provider's count: 0.8 of the guard's own tokenizer's.
    countTokens: (request) => Math.ceil(estimate(request) * 0.8),
    reportUsage,
    script: ({ index }) => ({ content: { role: 'model', parts: [{ text: `ok ${index}` }] } }),
  });
  const logger = new CapturingLogger();
  const guard = new ContextGuard({ logger, summarizer: { name: 's', summarize: async () => ({ text: 'Numbers.' }) } });
  const agent = new LlmAgent({ name: 'worker', model, instruction: 'You keep numbers.' });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] });
  const session = await sessionService.createSession({ appName: APP_NAME, userId: 'u' });
  const errors: string[] = [];
  for (let turn = 0; turn < 60; turn++) {
    const numbers = Array.from({ length: 40 }, (_, i) => `id-${turn}-${i}=${(turn * 7_919 + i * 104_729) % 1_000_003}`);
    for await (const event of runner.runAsync({
      userId: 'u',
      sessionId: session.id,
      newMessage: userMessage(`turn ${turn}: ${numbers.join(' ')}`),
    }))
      if (event.errorCode) errors.push(String(event.errorCode));
  }
  const stored = await sessionService.getSession({ appName: APP_NAME, userId: 'u', sessionId: session.id });
  return { status: guard.status(stored, 'worker'), errors, rejected: model.rejectedRequests.length, logger };
}

describe('a stated maximum, from a provider that reports no usage', () => {
  it.each([
    ['never', false],
    ['on every other call', (index: number) => index % 2 === 1],
  ] as const)(
    'should keep it when usage is reported %s: one rejection, the window shown learned',
    async (_, report) => {
      const { status, errors, rejected, logger } = await run(report);
      expect(errors).toEqual([]);
      expect(rejected).toBe(1);
      expect(status).toMatchObject({ window: MAXIMUM, windowSource: 'learned' });
      expect(logger.matching(/accepted a larger request/)).toEqual([]);
    },
  );
});
