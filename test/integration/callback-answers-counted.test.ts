/**
 * An agent's own `beforeModelCallback` that answers instead of the model (a rate limiter's canned reply, a
 * cache, a guardrail) runs after the guard's plugin hook, so the guard has decided the call (counted it,
 * perhaps compacted for it) and no after-model hook follows. Its counts and compaction record must still reach
 * the session's events (the thirty-seventh outside trial: they waited for the agent's next call of the same
 * invocation, which a canned reply that ends the turn never makes, and `status()` fell back to state counts).
 */
import { InMemorySessionService, LlmAgent, Runner, type LlmResponse } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard, type CompactionRecord } from '../../src/index.js';
import { COMPACTION_METADATA_KEY } from '../../src/internal.js';
import { logText, ratioTokenCounter, ScriptedLlm, ScriptedSummarizer } from '../../src/testing/index.js';
import { callThenAnswer } from '../support/call-then-answer.js';
import { APP_NAME, fetchLogsTool, runTurn, startSession, storedSession } from '../support/agent-harness.js';

const WINDOW = 8_000;
const TURNS = 24;

function cannedEvery(nth: number): { callback: () => LlmResponse | undefined; canned: () => number } {
  let calls = 0;
  let canned = 0;
  const callback = (): LlmResponse | undefined => {
    calls += 1;
    if (calls % nth !== 0) return undefined;
    canned += 1;
    return { content: { role: 'model', parts: [{ text: 'Too many requests; try again in a minute.' }] } };
  };
  return { callback, canned: () => canned };
}

describe('a call an agent callback answers itself', () => {
  it('should leave its counts and compaction record on the events, so status() counts from them', async () => {
    const model = new ScriptedLlm({
      window: WINDOW,
      countTokens: ratioTokenCounter(1.8),
      script: callThenAnswer({
        call: ({ request }) => ({ name: 'fetch_logs', args: { size: 3_000, seed: request.contents.length + 1 } }),
        answer: ({ request }) => `Analysis ${request.contents.length}: ${logText(1_500, request.contents.length)}`,
      }),
    });
    const limiter = cannedEvery(3);
    const agent = new LlmAgent({
      name: 'worker',
      model,
      instruction: 'You analyse server logs.',
      tools: [fetchLogsTool()],
      beforeModelCallback: limiter.callback,
    });
    const records: CompactionRecord[] = [];
    const guard = new ContextGuard({
      contextWindow: WINDOW,
      summarizer: new ScriptedSummarizer(),
      prepareTurnsAhead: 0,
      onCompaction: (record) => void records.push(record),
    });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] });
    const session = await startSession(sessionService);
    for (let turn = 1; turn <= TURNS; turn += 1) await runTurn(runner, session.id, `Turn ${turn}: read the logs.`);

    const stored = await storedSession(sessionService, session.id);
    const status = guard.status(stored, 'worker');
    expect(limiter.canned()).toBeGreaterThan(5);
    expect(records.length).toBeGreaterThan(0);
    expect(status.countsFrom).toBe('events');
    // Every call the guard prepared: those the model received and those the callback answered.
    expect(status.modelCalls).toBe(model.requests.length + limiter.canned());
    expect(status.compactions).toBe(records.length);
    const onEvents = stored.events.filter((event) => event.customMetadata?.[COMPACTION_METADATA_KEY] !== undefined);
    expect(onEvents).toHaveLength(records.length);
  });
});
