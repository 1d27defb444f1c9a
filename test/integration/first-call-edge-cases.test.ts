/**
 * Edge cases of an agent's first call, through the real Runner, from the seventh review: a first message cut to the
 * hard limit by the estimate (a rejection without a count, a tool loop, many parts, a budget line, a pin), a
 * correction another agent learned (a forged one, one of a request that counts higher), and `turnsLeft` beside a
 * callback that drops history after the guard.
 */
import { LogLevel, setLogLevel } from '@google/adk';
import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { faultHarness } from '../support/fault-harness.js';
import { payloadText } from '../support/payloads.js';
import { tiktokenTokenizer } from '../../src/index.js';
import type { ModelScript } from '../../src/testing/index.js';
import { stateKeysFor } from '../../src/state/keys.js';

setLogLevel(LogLevel.ERROR);

const WINDOW = 16_000;
const CUT_NOTE = /the turn's user content \(~\d+ tokens: .*\) does not fit/;

function pasted(share: number): string {
  for (let chars = 20_000; ; chars += 2_000) {
    const text = `Here is the contract: ${payloadText('prose', chars, 1)} MIDDLE ${payloadText('prose', chars, 2)} END-OF-CONTRACT`;
    if (tiktokenTokenizer.count(text) >= WINDOW * share) return text;
  }
}

/** Calls `fetch` `steps` times in a row on each user turn, then answers. */
function toolLoop(steps: number): ModelScript {
  return ({ request, index }) => {
    const contents = request.contents;
    let results = 0;
    for (let i = contents.length - 1; i >= 0; i--) {
      const parts = contents[i]!.parts ?? [];
      if (contents[i]!.role === 'user' && parts.some((part) => part.text !== undefined)) break;
      results += parts.filter((part) => part.functionResponse).length;
    }
    if (results < steps)
      return { content: { role: 'model', parts: [{ functionCall: { name: 'fetch', args: { size: 200 } } }] } };
    return { content: { role: 'model', parts: [{ text: `Answer ${index}.` }] } };
  };
}

const noNumber = () => new Error('Request failed: the prompt is too long for this model.');

describe('the first message cut to the hard limit', () => {
  it('should not reach the user as an error when the provider rejects the cut message without stating a count', async () => {
    const h = await faultHarness({
      model: 'gemini-2.5-flash',
      window: WINDOW,
      ratio: 1.3,
      toolChars: 0,
      fail: ({ promptTokens }) => (promptTokens > WINDOW ? noNumber() : undefined),
    });
    const outcome = await h.turn(pasted(0.97));
    expect(outcome.thrown).toBeUndefined();
    expect(outcome.errorCodes).toEqual([]);
    expect(h.model.requests.at(-1)!.promptTokens).toBeLessThanOrEqual(WINDOW);
  });

  it('should say once, not on every call of a tool loop, that the user message was cut', async () => {
    const h = await faultHarness({ model: 'gemini-2.5-flash', window: WINDOW, ratio: 1, script: toolLoop(5) });
    const outcome = await h.turn(pasted(0.97));
    expect(outcome.errorCodes).toEqual([]);
    expect(h.model.requests.length).toBeGreaterThanOrEqual(6);
    expect(h.logger.matching(CUT_NOTE)).toHaveLength(1);
  });

  it('should keep the first and the last part of a 60-part first message (the question is at the end)', async () => {
    const doc = pasted(0.9);
    const size = Math.ceil(doc.length / 59);
    const parts = Array.from({ length: 59 }, (_, i) => ({ text: doc.slice(i * size, (i + 1) * size) }));
    const message: Content = { role: 'user', parts: [...parts, { text: 'QUESTION: what does the middle say?' }] };
    const h = await faultHarness({ model: 'gemini-2.5-flash', window: WINDOW, ratio: 1.2, toolChars: 0 });
    const outcome = await h.turn(message);
    expect(outcome.errorCodes).toEqual([]);
    const sent = h.model.requests.at(-1)!;
    const user = sent.contents.find((content) => content.role === 'user')!;
    const texts = (user.parts ?? []).map((part) => part.text ?? '');
    expect(texts.at(-1)).toBe('QUESTION: what does the middle say?');
    expect(texts[0]!.startsWith('Here is the contract:')).toBe(true);
  });
});

describe('the first message cut beside what else the request carries', () => {
  const cases: Record<string, Parameters<typeof faultHarness>[0]> = {
    'the budget line': { guard: { budgetLine: true } },
    'a big system prompt': { instruction: `You analyse documents. ${payloadText('prose', 12_000, 9)}` },
  };
  for (const [name, options] of Object.entries(cases)) {
    for (const ratio of [1, 1.3]) {
      it(`should send it under the window without an error, with ${name} (ratio ${ratio})`, async () => {
        const h = await faultHarness({ model: 'gemini-2.5-flash', window: WINDOW, ratio, toolChars: 0, ...options });
        const outcome = await h.turn(pasted(0.97));
        expect(outcome.errorCodes).toEqual([]);
        if (ratio === 1) expect(h.model.rejectedRequests).toEqual([]);
        expect(h.model.requests.at(-1)!.promptTokens).toBeLessThanOrEqual(WINDOW);
        expect(h.overLimitWarnings()).toBe(0);
      });
    }
  }

  for (const ratio of [1, 1.3]) {
    it(`should send it under the window without an error beside a large pin (ratio ${ratio})`, async () => {
      const h = await faultHarness({ model: 'gemini-2.5-flash', window: WINDOW, ratio, toolChars: 0 });
      const session = await h.sessionService.getSession({
        appName: 'guard-faults',
        userId: 'user-f',
        sessionId: h.sessionId,
      });
      await h.guard.pin({
        sessionService: h.sessionService,
        session: session!,
        text: `Facts: ${payloadText('prose', 6_000, 4)}`,
        agentName: 'worker',
      });
      const outcome = await h.turn(pasted(0.97));
      expect(outcome.errorCodes).toEqual([]);
      if (ratio === 1) expect(h.model.rejectedRequests).toEqual([]);
      expect(h.model.requests.at(-1)!.promptTokens).toBeLessThanOrEqual(WINDOW);
    });
  }
});

describe('the correction another agent learned', () => {
  it('should not let a state key written by a tool make a first call undercount into an error', async () => {
    // A ghost agent's record, as a tool writing `context_guard:ghost:usage` would leave it.
    const ghost = {
      modelCalls: 3,
      learnedCorrection: 1,
      correctionModel: 'gpt-4o',
      realPromptTokens: 10,
      lastEstimate: 10,
    };
    const h = await faultHarness({
      model: 'gpt-4o',
      window: WINDOW,
      ratio: 1.45,
      toolChars: 0,
      state: { [stateKeysFor('ghost').usage]: ghost },
      fail: ({ promptTokens }) => (promptTokens > WINDOW ? noNumber() : undefined),
    });
    const outcome = await h.turn(pasted(0.8));
    expect(outcome.errorCodes).toEqual([]);
    expect(outcome.thrown).toBeUndefined();
    // It costs one rejection (a forged record of the agent's own did so before too), retried inside the call.
    expect(h.model.rejectedRequests).toHaveLength(1);
    expect((await h.usage()).retriedCalls).toBe(1);
  });
});

describe('a sibling correction above what this agent needs', () => {
  it("should not cut a second agent's first message that fits, because a sibling's request counted high", async () => {
    const { InMemorySessionService, LlmAgent, Runner, SequentialAgent } = await import('@google/adk');
    const { ContextGuard } = await import('../../src/index.js');
    const { CapturingLogger, ScriptedLlm, ScriptedSummarizerLlm } = await import('../../src/testing/index.js');
    const { proportionalCounter } = await import('../support/proportional-counter.js');
    // The same model; the first agent's request is one its tokenizer counts at 2x the estimator (heavy JSON, say),
    // the second agent's prose at 1x. Each agent's count is right for its own request.
    const answering = (ratio: number) =>
      new ScriptedLlm({
        model: 'gemini-2.5-flash',
        window: WINDOW,
        countTokens: proportionalCounter(ratio),
        script: ({ index }) => ({ content: { role: 'model', parts: [{ text: `Noted ${index}.` }] } }),
      });
    const first = answering(2);
    const second = answering(1);
    const root = new SequentialAgent({
      name: 'pipeline',
      subAgents: [
        new LlmAgent({ name: 'indexer', model: first, instruction: 'Index it.', includeContents: 'none' }),
        new LlmAgent({ name: 'reader', model: second, instruction: 'Read it.' }),
      ],
    });
    const guard = new ContextGuard({
      contextWindow: WINDOW,
      logger: new CapturingLogger(),
      summarizer: new ScriptedSummarizerLlm(),
      prepareTurnsAhead: 0,
    });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: 'siblings', agent: root, sessionService, plugins: [guard] });
    const session = await sessionService.createSession({ appName: 'siblings', userId: 'u' });
    const message = pasted(0.6);
    const errors: string[] = [];
    for await (const event of runner.runAsync({
      userId: 'u',
      sessionId: session.id,
      newMessage: { role: 'user', parts: [{ text: message }] },
    }))
      if (event.errorCode) errors.push(`${event.errorCode}`);
    expect(errors).toEqual([]);
    // 60% of the window by the estimate and by the reader's provider: it fits whole, with room to spare.
    const sent = second.requests[0]!;
    const user = sent.contents.find((content) => content.role === 'user')!;
    expect(user.parts?.map((part) => part.text).join('')).toBe(message);
  });
});

describe('usedTokens with a callback that drops history after the guard', () => {
  it('should not promise more turns than the guard gives before it compacts', async () => {
    const h = await faultHarness({
      window: 8_000,
      ratio: 1.3,
      toolChars: 1_500,
      // Sends only the current turn: the provider counts far less than the history the guard reduces by.
      beforeModelCallback: ({ request }) => {
        const contents = request.contents;
        let from = contents.length - 1;
        while (from > 0 && !(contents[from]!.role === 'user' && contents[from]!.parts?.some((p) => p.text))) from--;
        request.contents = contents.slice(from);
        return undefined;
      },
    });
    const promised: (number | undefined)[] = [];
    let turns = 0;
    while (h.records.length === 0 && turns < 20) {
      turns++;
      await h.turn(`Turn ${turns}: fetch the document and tell me what changed.`);
      if (h.records.length === 0) {
        const session = await h.sessionService.getSession({
          appName: 'guard-faults',
          userId: 'user-f',
          sessionId: h.sessionId,
        });
        promised.push(h.guard.status(session, 'worker').turnsLeft);
      }
    }
    expect(h.records.length).toBe(1);
    // The turn before the guard compacted, the status still promised turns: it paced the provider's count of what
    // the callback left, not the history the guard reduces by (`estimatedTokens`).
    expect(promised.at(-1)).toBeLessThanOrEqual(1);
  });
});
