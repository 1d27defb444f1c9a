/**
 * A second agent's first call in a session another agent already calibrated on the same model starts from that
 * agent's correction, through a real Runner. Before, each agent started from the default guess: the seventh
 * outside trial saw the second agent of a `SequentialAgent` send the same document whole and take the same
 * rejection the first had taken, and a sub-agent after a transfer make a summary at the threshold capped for want
 * of a count and discard it.
 */
import { InMemorySessionService, LlmAgent, LogLevel, Runner, SequentialAgent, setLogLevel } from '@google/adk';
import type { BaseAgent } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { proseOfShare } from '../support/prose-of-share.js';
import { ContextGuard } from '../../src/index.js';
import { CapturingLogger, ScriptedLlm } from '../../src/testing/index.js';
import { ScriptedSummarizerLlm } from '../../src/testing/index.js';
import { proportionalCounter } from '../support/proportional-counter.js';
import { stateKeysFor } from '../../src/state/keys.js';
import { decodeUsageRecord } from '../../src/usage/stored-usage.js';

setLogLevel(LogLevel.ERROR);

const WINDOW = 16_000;

const documentOf = (share: number): string => proseOfShare(WINDOW * share);

/** A model that answers at once, counting `ratio` tokens for each of the estimator's and rejecting over the window. */
function answering(model: string, ratio: number): ScriptedLlm {
  return new ScriptedLlm({
    model,
    window: WINDOW,
    countTokens: proportionalCounter(ratio),
    script: ({ index }) => ({ content: { role: 'model', parts: [{ text: `Noted ${index}.` }] } }),
  });
}

/** A `SequentialAgent` of a reader on `first` and a checker on `second`. */
function readerThenChecker(first: ScriptedLlm, second: ScriptedLlm): SequentialAgent {
  return new SequentialAgent({
    name: 'pipeline',
    subAgents: [
      new LlmAgent({ name: 'reader', model: first, instruction: 'Read the log.' }),
      new LlmAgent({ name: 'checker', model: second, instruction: 'Check the log.' }),
    ],
  });
}

async function runOnce(root: BaseAgent, ...messages: string[]) {
  const logger = new CapturingLogger();
  const summarizer = new ScriptedSummarizerLlm();
  const guard = new ContextGuard({ contextWindow: WINDOW, logger, summarizer, prepareTurnsAhead: 0 });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: 'siblings', agent: root, sessionService, plugins: [guard] });
  const session = await sessionService.createSession({ appName: 'siblings', userId: 'u' });
  const errors: string[] = [];
  for (const message of messages) {
    const newMessage = { role: 'user', parts: [{ text: message }] };
    for await (const event of runner.runAsync({ userId: 'u', sessionId: session.id, newMessage }))
      if (event.errorCode) errors.push(`${event.errorCode}`);
  }
  const stored = await sessionService.getSession({ appName: 'siblings', userId: 'u', sessionId: session.id });
  const usageOf = (name: string) => decodeUsageRecord(stored?.state[stateKeysFor(name).usage]);
  return { errors, logger, summarizer, usageOf };
}

describe('an agent first call in a session another agent calibrated', () => {
  it('should start from the correction the first agent learned for the same model, and its threshold', async () => {
    const first = answering('gemini-2.5-flash', 1.2);
    const second = answering('gemini-2.5-flash', 1.2);
    const root = readerThenChecker(first, second);
    // 60% of the window by the estimate, 72% by the provider: over the threshold capped at 50% for want of a count
    // at the default correction (90%), under the calibrated one (80%) at the reader's (72%).
    const message = documentOf(0.6);
    const { errors, logger, summarizer, usageOf } = await runOnce(root, message);
    expect(errors).toEqual([]);
    expect(usageOf('reader').correctionModel).toBe('gemini-2.5-flash');
    expect(logger.matching(/agent 'checker': starts from the correction x1\.\d\d agent 'reader'/)).toHaveLength(1);
    expect(usageOf('checker').correctionModel).toBe('gemini-2.5-flash');
    // No summary made for room the checker had, and its message sent whole.
    expect(summarizer.calls).toEqual([]);
    expect(usageOf('checker').discardedCompactions).toBe(0);
    const user = second.requests[0]!.contents.find((content) => content.role === 'user');
    expect(user?.parts?.[0]?.text).toBe(message);
  });

  it('should still send a first message that fits by the estimate whole, and retry it cut if it is rejected', async () => {
    // The checker's message is the reader's; both count at 1.2: the reader's rejection is taken again (retried in
    // the call), since another agent's correction may be of a request that counts higher than this one's.
    const first = answering('gemini-2.5-flash', 1.2);
    const second = answering('gemini-2.5-flash', 1.2);
    const root = readerThenChecker(first, second);
    const { errors, usageOf } = await runOnce(root, documentOf(0.85));
    expect(errors).toEqual([]);
    expect(second.rejectedRequests).toHaveLength(1);
    expect(usageOf('checker').retriedCalls).toBe(1);
    expect(second.requests.at(-1)!.promptTokens).toBeLessThanOrEqual(WINDOW);
  });

  it('should not make and discard a summary on a sub-agent first call after a transfer', async () => {
    const routerModel = new ScriptedLlm({
      model: 'gemini-2.5-flash',
      window: WINDOW,
      countTokens: proportionalCounter(1),
      // A greeting is answered; anything else goes to the reader.
      script: ({ request }) => {
        const last = request.contents.at(-1)?.parts?.[0]?.text ?? '';
        return last === 'Hi.'
          ? { content: { role: 'model', parts: [{ text: 'Hello.' }] } }
          : {
              content: {
                role: 'model',
                parts: [{ functionCall: { name: 'transfer_to_agent', args: { agentName: 'reader' } } }],
              },
            };
      },
    });
    const readerModel = answering('gemini-2.5-flash', 1);
    const reader = new LlmAgent({
      name: 'reader',
      description: 'Reads logs.',
      model: readerModel,
      instruction: 'Read.',
    });
    const root = new LlmAgent({ name: 'router', model: routerModel, instruction: 'Route.', subAgents: [reader] });
    // 55% of the window: over the threshold capped at 50% for want of a count, at the default correction.
    const { errors, summarizer, usageOf } = await runOnce(root, 'Hi.', documentOf(0.55));
    expect(errors).toEqual([]);
    expect(readerModel.requests).toHaveLength(1);
    expect(summarizer.calls).toEqual([]);
    expect(usageOf('reader').discardedCompactions).toBe(0);
    expect(usageOf('reader').compactions).toBe(0);
  });

  it('should not start from a correction learned for another model', async () => {
    const first = answering('gemini-2.5-pro', 1.2);
    const second = answering('gemini-2.5-flash', 1.2);
    const root = readerThenChecker(first, second);
    const { errors, logger } = await runOnce(root, documentOf(0.85));
    expect(errors).toEqual([]);
    // Its own first call is held on the estimate and rejected, as the first agent's was: nothing said it differs.
    expect(second.rejectedRequests).toHaveLength(1);
    expect(logger.matching(/starts from the correction/)).toEqual([]);
  });
});
