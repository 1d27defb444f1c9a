/**
 * A fingerprint is 52 bits, and another agent's call arguments are hashed as JSON, order-free: the forty-seventh
 * outside trial crafted two texts of that shape, one of 2.2k and one of 16.6k tokens, with the same fingerprint
 * (test/fixtures/fingerprint-collision.json). The guard's memo of measured contents was one for the whole process:
 * one user's cheap text stood for another user's dear one, and that user's request went out 5% over the window. The
 * memo is now each user's own (MeasureOptions.tenant).
 */
import { readFileSync } from 'node:fs';
import { InMemorySessionService, LlmAgent, Runner } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard, tiktokenTokenizer } from '../../src/index.js';
import { fingerprint } from '../../src/estimate/fingerprint.js';
import { proseText, ScriptedLlm, ScriptedSummarizer, tokenizerTokenCounter } from '../../src/testing/index.js';

const { textA, textB } = JSON.parse(
  readFileSync(new URL('../fixtures/fingerprint-collision.json', import.meta.url), 'utf8'),
) as { textA: string; textB: string };

const WINDOW = 32_000;
const user = (text: string) => ({ role: 'user', parts: [{ text }] });

describe('two users whose texts share a fingerprint', () => {
  it("should measure each user's text as it is, and send no request over the window", async () => {
    expect(fingerprint(user(textA))).toBe(fingerprint(user(textB)));
    const model = new ScriptedLlm({
      window: WINDOW,
      countTokens: tokenizerTokenCounter(tiktokenTokenizer),
      script: ({ index }) => ({ content: { role: 'model', parts: [{ text: `ok ${index}` }] } }),
    });
    const guard = new ContextGuard({ contextWindow: WINDOW, summarizer: new ScriptedSummarizer() });
    const agent = new LlmAgent({ name: 'worker', model, instruction: 'You help.' });
    const sessions = new InMemorySessionService();
    const runner = new Runner({ appName: 'app', agent, sessionService: sessions, plugins: [guard] });
    const say = async (userId: string, sessionId: string, text: string) => {
      for await (const _ of runner.runAsync({ userId, sessionId, newMessage: user(text) }));
    };
    const first = await sessions.createSession({ appName: 'app', userId: 'mallory' });
    const second = await sessions.createSession({ appName: 'app', userId: 'victim' });
    await say('mallory', first.id, textA);
    for (let turn = 0; turn < 16; turn++) await say('victim', second.id, `turn ${turn}: ${proseText(6_000, turn + 1)}`);
    await say('victim', second.id, textB);
    expect(model.requests.every((request) => !request.rejected)).toBe(true);
    const stored = await sessions.getSession({ appName: 'app', userId: 'victim', sessionId: second.id });
    expect(guard.status(stored, 'worker')?.retriedCalls).toBe(0);
  });
});
