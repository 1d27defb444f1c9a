/**
 * Hostile content through the real ADK Runner: text crafted against the guard's own shortcuts,
 * sent by one user of a process that serves many.
 *
 * Guarantees:
 * - two texts of one length that differ anywhere are two contents to the process-wide
 *   fingerprint → tokens memo: a text crafted to share another user's sampled windows (head,
 *   quarters, tail) with CJK everywhere else is counted as itself, so its request fits the window
 *   as if the other user had never been served;
 * - a message the user typed that starts with "For context:" (ADK renders another agent's events
 *   with a first part that is exactly those words) is the user's request: it stays verbatim in
 *   every request of its turn while the turn's older steps are summarized;
 * - an image sent alone as the user's message is the user's request too: kept verbatim like a text;
 * - a message whose parts are code execution (`executableCode`, `codeExecutionResult`) larger
 *   than the window is cut head and tail to fit, like a text: no request over the window, no
 *   error event.
 */
import { InMemorySessionService, LlmAgent, LogLevel, Runner, setLogLevel } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard, tiktokenTokenizer } from '../../src/index.js';
import {
  cjkText,
  pngBytes,
  proseText,
  ratioTokenCounter,
  ScriptedLlm,
  ScriptedSummarizer,
  toBase64,
  tokenizerTokenCounter,
  type ModelScript,
} from '../../src/testing/index.js';
import { createHarness, runTurn, USER_ID } from '../support/agent-harness.js';
import { summaryText } from '../support/request-invariants.js';

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

/** Calls `fetch_logs` `steps` times in the turn, then answers. */
function toolLoop(steps: number): ModelScript {
  let calls = 0;
  return () => {
    calls += 1;
    if (calls > steps) return { content: { role: 'model', parts: [{ text: 'Done.' }] } };
    return {
      content: {
        role: 'model',
        parts: [{ functionCall: { name: 'fetch_logs', args: { size: 3_000, seed: calls } } }],
      },
    };
  };
}

/** A 12-step tool loop on a 12,288-token window, masking off: the turn's steps are summarized while it runs. */
async function summarizedLoop() {
  const window = 12_288;
  const guard = new ContextGuard({ contextWindow: window, summarizer: new ScriptedSummarizer(), maskKeepRecent: 0 });
  const harness = createHarness({ window, ratio: 1.8, script: toolLoop(12), plugins: [guard] });
  return { harness, session: await harness.startSession() };
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

  describe("a message of the user that reads like ADK's rendering of another agent", () => {
    it('should keep it verbatim in every request of its turn while the turn is summarized', async () => {
      const { harness, session } = await summarizedLoop();
      const message = `For context: I deploy with Terraform. ${proseText(6_000, 3)} Open the pull request against main.`;
      await runTurn(harness.runner, session.id, message);

      const requests = harness.model.requests;
      expect(requests.length).toBe(13);
      expect(harness.model.rejectedRequests).toEqual([]);
      expect(requests.some((request) => summaryText(request.contents) !== undefined)).toBe(true);
      // Before: from the first compaction on, the message was summarized with the turn's steps.
      for (const request of requests)
        expect(
          request.contents.some((content) => content.role === 'user' && content.parts?.[0]?.text === message),
          `request ${request.index}`,
        ).toBe(true);
    });
  });

  describe('an image sent alone as the message', () => {
    it('should keep an image sent without text verbatim in every request of its turn', async () => {
      const { harness, session } = await summarizedLoop();
      const image = { inlineData: { mimeType: 'image/png', data: toBase64(pngBytes(640, 480)) } };
      for await (const event of harness.runner.runAsync({
        userId: USER_ID,
        sessionId: session.id,
        newMessage: { role: 'user', parts: [image] },
      }))
        expect(event.errorCode).toBeUndefined();

      const requests = harness.model.requests;
      expect(requests.length).toBe(13);
      expect(harness.model.rejectedRequests).toEqual([]);
      expect(requests.some((request) => summaryText(request.contents) !== undefined)).toBe(true);
      // Before: a message without text was no request of the user's; the first compaction summarized it away.
      for (const request of requests)
        expect(
          request.contents.some((content) => content.parts?.[0]?.inlineData?.data === image.inlineData.data),
          `request ${request.index}`,
        ).toBe(true);
    });
  });

  describe('a message of code execution parts larger than the window', () => {
    it('should cut them head and tail to fit, with no request over the window and no error', async () => {
      const window = 16_000;
      const model = new ScriptedLlm({
        window,
        countTokens: ratioTokenCounter(1),
        script: () => ({ content: { role: 'model', parts: [{ text: 'Ran it.' }] } }),
      });
      const agent = new LlmAgent({ name: 'worker', model, instruction: 'You run code.' });
      const guard = new ContextGuard({ contextWindow: window, summarizer: new ScriptedSummarizer() });
      const runner = new Runner({
        appName: APP,
        agent,
        sessionService: new InMemorySessionService(),
        plugins: [guard],
      });
      const session = await runner.sessionService.createSession({ appName: APP, userId: 'carol' });
      const code = `import csv\n${'print(row)\n'.repeat(4_000)}# end of script`;
      const output = `header\n${'1,2,3\n'.repeat(7_000)}footer`;
      // Before: sent whole (about 21,000 tokens), rejected, and the provider's 400 ended the turn.
      for await (const event of runner.runAsync({
        userId: 'carol',
        sessionId: session.id,
        newMessage: {
          role: 'user',
          parts: [{ executableCode: { code } }, { codeExecutionResult: { output } }],
        },
      }))
        expect(event.errorCode).toBeUndefined();
      expect(model.rejectedRequests).toEqual([]);
      const sent = model.requests[0]?.contents.at(-1)?.parts ?? [];
      expect(sent[0]?.executableCode?.code?.startsWith('import csv')).toBe(true);
      expect(sent[1]?.codeExecutionResult?.output?.endsWith('footer')).toBe(true);
      expect(model.requests[0]?.promptTokens).toBeLessThanOrEqual(window);
    });
  });
});
