/**
 * HTTP 413 from a proxy's body-size limit (a byte limit) is read as an overflow that states nothing: a text-heavy
 * request's measure bounds the session's window (test/integration/unreadable-rejection.test.ts). A photo's base64 is
 * megabytes of a few hundred tokens, so a 413 of a request whose bytes are mostly media says nothing of a window in
 * tokens. Review 33: one 2 MB photo bounded a 1M-token session at 3,984 tokens for good, and every later text turn
 * compacted six times.
 */
import { InMemorySessionService, LlmAgent, Runner } from '@google/adk';
import type { Part } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import {
  CapturingLogger,
  imageBase64,
  proseText,
  ratioTokenCounter,
  ScriptedLlm,
  ScriptedSummarizer,
} from '../../src/testing/index.js';
import { APP_NAME, startSession, storedSession, USER_ID } from '../support/agent-harness.js';

const BODY_LIMIT = 1_000_000;
const REGISTRY_WINDOW = 1_048_576;

describe('a 413 of a request whose bytes are mostly a photo', () => {
  it("should not bound the session's window by the request's measure in tokens", async () => {
    let refused = 0;
    const model = new ScriptedLlm({
      model: 'gemini-2.5-flash',
      window: REGISTRY_WINDOW,
      countTokens: ratioTokenCounter(1.2),
      script: ({ index }) => ({
        content: { role: 'model', parts: [{ text: `answer ${index}: ${proseText(400, index)}` }] },
      }),
      fail: (call) => {
        if (JSON.stringify(call.request.contents).length <= BODY_LIMIT) return undefined;
        refused += 1;
        return Object.assign(new Error('Request failed with status code 413'), { status: 413 });
      },
    });
    const guard = new ContextGuard({ summarizer: new ScriptedSummarizer(), logger: new CapturingLogger() });
    const agent = new LlmAgent({ name: 'worker', model, instruction: 'You describe photos and chat.' });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] });
    const session = await startSession(sessionService);
    const turn = async (parts: Part[]): Promise<void> => {
      for await (const event of runner.runAsync({
        userId: USER_ID,
        sessionId: session.id,
        newMessage: { role: 'user', parts },
      }))
        void event;
    };
    for (let at = 1; at <= 3; at++) await turn([{ text: `Turn ${at}: ${proseText(3_000, at)}` }]);
    const photo = imageBase64(1024, 768, 2_000_000, 7);
    await turn([{ text: 'What is in this photo?' }, { inlineData: { mimeType: 'image/png', data: photo } }]);

    expect(refused).toBeGreaterThan(0);
    const status = guard.status(await storedSession(sessionService, session.id), 'worker');
    expect({ window: status.window, source: status.windowSource }).toEqual({
      window: REGISTRY_WINDOW,
      source: 'registry',
    });
  });
});
