/**
 * A first message over the window, rejected in the words a LiteLLM proxy gives openai-node ("400 " before the
 * proxy's class names) or wraps Vertex AI's JSON in (found by review 9): neither was read, nothing was learned, the
 * retry was not smaller, and the rejection reached the user as an error event. Through a real Runner, as
 * first-call-rejection-words.test.ts.
 */
import { InMemorySessionService, LlmAgent, LogLevel, Runner, setLogLevel } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard, tiktokenTokenizer } from '../../src/index.js';
import { CapturingLogger, ScriptedLlm, ScriptedSummarizerLlm } from '../../src/testing/index.js';
import { payloadText } from '../support/payloads.js';
import { proportionalCounter } from '../support/proportional-counter.js';

setLogLevel(LogLevel.ERROR);

const WINDOW = 16_000;

const WORDINGS: Record<string, (tokens: number) => string> = {
  'openai-node against a LiteLLM proxy': (tokens) =>
    `400 litellm.ContextWindowExceededError: litellm.BadRequestError: ContextWindowExceededError: OpenAIException - This model's maximum context length is ${WINDOW} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`,
  'LiteLLM wrapping Vertex AI': (tokens) =>
    JSON.stringify({
      error: {
        message: `litellm.ContextWindowExceededError: litellm.BadRequestError: VertexAIException BadRequestError - ${JSON.stringify({ error: { code: 400, message: `The input token count (${tokens}) exceeds the maximum number of tokens allowed (${WINDOW}).`, status: 'INVALID_ARGUMENT' } }, null, 2)}\n`,
        type: null,
        param: null,
        code: '400',
      },
    }),
};

function pasted(share: number): string {
  for (let chars = 15_000; ; chars += 200) {
    const text = `Contract: ${payloadText('prose', chars, 1)} MIDDLE-CLAUSE-7 ${payloadText('prose', 15_000, 2)} END`;
    if (tiktokenTokenizer.count(text) >= WINDOW * share) return text;
  }
}

async function firstTurn(wording: (tokens: number) => string) {
  const model = new ScriptedLlm({
    window: Number.MAX_SAFE_INTEGER,
    countTokens: proportionalCounter(1.7),
    script: ({ index }) => ({ content: { role: 'model', parts: [{ text: `Answer ${index}` }] } }),
    fail: ({ promptTokens }) => (promptTokens > WINDOW ? new Error(wording(promptTokens)) : undefined),
  });
  const guard = new ContextGuard({
    contextWindow: WINDOW,
    summarizer: new ScriptedSummarizerLlm(),
    modelWindows: { 'scripted-summarizer': 32_000 },
    logger: new CapturingLogger(),
  });
  const agent = new LlmAgent({ name: 'worker', model, instruction: 'You analyse documents.' });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: 'words', agent, sessionService, plugins: [guard] });
  const session = await sessionService.createSession({ appName: 'words', userId: 'u' });
  const errors: string[] = [];
  const newMessage = { role: 'user', parts: [{ text: pasted(0.6) }] };
  for await (const event of runner.runAsync({ userId: 'u', sessionId: session.id, newMessage }))
    if (event.errorCode) errors.push(`${event.errorCode}`);
  return { errors, model };
}

describe('a first message rejected in words a LiteLLM proxy gives', () => {
  for (const [client, wording] of Object.entries(WORDINGS)) {
    it(`should be retried inside the call with the message cut, no error reaching the user (${client})`, async () => {
      const { errors, model } = await firstTurn(wording);
      expect(errors).toEqual([]);
      expect(model.requests[1]?.promptTokens ?? Infinity).toBeLessThanOrEqual(WINDOW);
    });
  }
});
