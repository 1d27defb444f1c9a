/**
 * Hostile content through the real ADK Runner: text crafted against the guard's own shortcuts,
 * sent by one user of a process that serves many.
 *
 * Guarantees:
 * - two texts of one length that differ anywhere are two contents to the process-wide
 *   fingerprint → tokens memo: a text crafted to share another user's sampled windows (head,
 *   quarters, tail) with CJK everywhere else is counted as itself, so its request fits the window
 *   as if the other user had never been served.
 */
import { InMemorySessionService, LlmAgent, LogLevel, Runner, setLogLevel } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard, tiktokenTokenizer } from '../../src/index.js';
import { cjkText, proseText, ScriptedLlm, tokenizerTokenCounter } from '../../src/testing/index.js';

setLogLevel(LogLevel.ERROR);

const APP = 'guard-hostile';
const WINDOW = 40_000;

/** `base` with every unit outside the windows the fingerprint used to sample (48 units at 0, ¼, ½ and the end) made CJK. */
function collidingText(base: string): string {
  const length = base.length;
  const quarter = Math.floor(length / 4);
  const middle = Math.floor(length / 2);
  const sampled = (i: number): boolean =>
    i < 48 || (i >= quarter && i < quarter + 48) || (i >= middle && i < middle + 48) || i >= length - 48;
  const cjk = cjkText(length, 7);
  let out = '';
  for (let i = 0; i < length; i++) out += sampled(i) ? base[i] : cjk[i];
  return out;
}

function oneProcess(): { runner: Runner; model: ScriptedLlm } {
  const model = new ScriptedLlm({
    window: WINDOW,
    countTokens: tokenizerTokenCounter(tiktokenTokenizer),
    script: () => ({ content: { role: 'model', parts: [{ text: 'Read it.' }] } }),
  });
  const agent = new LlmAgent({ name: 'worker', model, instruction: 'You read documents.' });
  const guard = new ContextGuard({ contextWindow: WINDOW, prepareTurnsAhead: 0 });
  return {
    runner: new Runner({ appName: APP, agent, sessionService: new InMemorySessionService(), plugins: [guard] }),
    model,
  };
}

async function send(runner: Runner, userId: string, text: string): Promise<void> {
  const session = await runner.sessionService.createSession({ appName: APP, userId });
  for await (const event of runner.runAsync({
    userId,
    sessionId: session.id,
    newMessage: { role: 'user', parts: [{ text }] },
  }))
    expect(event.errorCode).toBeUndefined();
}

describe('hostile content', () => {
  describe("a text crafted to share another user's fingerprint samples", () => {
    it('should count it as itself: its request fits the window as if the other user had never been served', async () => {
      const pasted = proseText(60_000, 3);
      const crafted = collidingText(pasted);
      expect(crafted.length).toBe(pasted.length);
      // The crafted text costs about six times the window's worth of the pasted one: it must be cut to fit.
      expect(tiktokenTokenizer.count(crafted)).toBeGreaterThan(WINDOW);
      expect(tiktokenTokenizer.count(pasted)).toBeLessThan(WINDOW / 2);

      const alone = oneProcess();
      await send(alone.runner, 'bob', crafted);

      const shared = oneProcess();
      await send(shared.runner, 'alice', pasted);
      await send(shared.runner, 'bob', crafted);

      // Before: bob's request took alice's count (about 10,500 tokens), was sent at about 60,700 and rejected.
      expect(shared.model.rejectedRequests).toEqual([]);
      const bobs = shared.model.requests.slice(1);
      expect(bobs.map((request) => request.contents)).toEqual(alone.model.requests.map((request) => request.contents));
      for (const request of bobs) expect(request.promptTokens).toBeLessThanOrEqual(WINDOW);
    });
  });
});
