/**
 * A provider that reports no usage on the agent's calls but counts the guard's summary requests (ADK's streamed
 * Interactions API path yields no usage; the summary call, not streamed, does): the forty-third outside trial saw the
 * guard stay uncalibrated for the whole session, held to half the window, and summarize on every one of 80 turns.
 * With the agent's own model as the summarizer (the default), the summary request's count calibrates the agent.
 */
import { InMemorySessionService, LlmAgent, Runner } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard, tiktokenTokenizer } from '../../src/index.js';
import { ScriptedLlm, answeringSummaries, summaryRequestKind, tokenizerTokenCounter } from '../../src/testing/index.js';
import { APP_NAME, userMessage } from '../support/agent-harness.js';

const WINDOW = 16_000;
const estimate = tokenizerTokenCounter(tiktokenTokenizer);

async function run(countsSummaries: boolean) {
  const summaryCalls = new Set<number>();
  const script = answeringSummaries(
    ({ index }) => ({ content: { role: 'model', parts: [{ text: `ok ${index}` }] } }),
    600,
  );
  const model = new ScriptedLlm({
    model: 'gemini-2.5-flash',
    window: WINDOW,
    countTokens: (request) => Math.ceil(estimate(request) * 0.8),
    script: (call) => {
      if (summaryRequestKind(call.request)) summaryCalls.add(call.index);
      return script(call);
    },
    reportUsage: (index) => countsSummaries && summaryCalls.has(index),
  });
  const guard = new ContextGuard({ contextWindow: WINDOW });
  const agent = new LlmAgent({ name: 'worker', model, instruction: 'You keep notes.' });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] });
  const session = await sessionService.createSession({ appName: APP_NAME, userId: 'u' });
  const errors: string[] = [];
  for (let turn = 0; turn < 40; turn++) {
    const words = Array.from(
      { length: 120 },
      (_, i) => `note-${turn}-${i} of ${(turn * 7_919 + i * 104_729) % 1_000_003}`,
    );
    for await (const event of runner.runAsync({
      userId: 'u',
      sessionId: session.id,
      newMessage: userMessage(`turn ${turn}: ${words.join(' ')}`),
    }))
      if (event.errorCode) errors.push(String(event.errorCode));
  }
  const stored = await sessionService.getSession({ appName: APP_NAME, userId: 'u', sessionId: session.id });
  return {
    status: guard.status(stored, 'worker'),
    errors,
    rejected: model.rejectedRequests.length,
    summaries: summaryCalls.size,
  };
}

describe("the agent's own model counting only the guard's summary requests", () => {
  it('should calibrate the agent from them, and so compact less often than with no count at all', async () => {
    const counted = await run(true);
    const uncounted = await run(false);
    expect(counted.errors).toEqual([]);
    expect(counted.rejected).toBe(0);
    expect(uncounted.status.calibrated).toBe(false);
    expect(counted.status.calibrated).toBe(true);
    expect(counted.status.compactions).toBeLessThan(uncounted.status.compactions);
  });
});
