/**
 * A first message over the window, rejected in the words a LiteLLM proxy gives openai-node ("400 " before the
 * proxy's class names) or wraps Vertex AI's JSON in (found by review 9): neither was read, nothing was learned, the
 * retry was not smaller, and the rejection reached the user as an error event. Through a real Runner, as
 * first-call-rejection-words.test.ts.
 */
import { LogLevel, setLogLevel } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { firstMessageRejected, REJECTING_WINDOW as WINDOW } from '../support/first-message-rejected.js';

setLogLevel(LogLevel.ERROR);

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

describe('a first message rejected in words a LiteLLM proxy gives', () => {
  for (const [client, wording] of Object.entries(WORDINGS)) {
    it(`should be retried inside the call with the message cut, no error reaching the user (${client})`, async () => {
      const { errors, model } = await firstMessageRejected(wording);
      expect(errors).toEqual([]);
      expect(model.requests[1]?.promptTokens ?? Infinity).toBeLessThanOrEqual(WINDOW);
    });
  }
});
