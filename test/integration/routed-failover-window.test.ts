/**
 * configuration.md, "Routed models": a `RoutedLlm` over a 32k model and an 8k backup its router fails over to, with
 * `contextWindow` set to the large model's window. One 503 of the large model sends a large request to the backup,
 * which refuses it; the guard retries the call, which the large model answers. The fifty-first outside trial saw the
 * session's window learned from that refusal (12,266 for the rest of the session, ten maskings and a summary where
 * none were needed). The backup's stated maximum is its known window: a failover, not this agent's window.
 */
import { InMemorySessionService, LlmAgent, RoutedLlm, Runner, type LlmRouter } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { CapturingLogger, ratioTokenCounter, ScriptedLlm, ScriptedSummarizer } from '../../src/testing/index.js';
import {
  APP_NAME,
  errorCodes,
  fetchLogsTool,
  runTurns,
  startSession,
  storedSession,
  toolThenAnswerScript,
} from '../support/agent-harness.js';

const unavailable = (): Error =>
  Object.assign(new Error(JSON.stringify({ error: { code: 503, message: 'overloaded', status: 'UNAVAILABLE' } })), {
    status: 503,
  });

/**
 * Runs 30 turns on the routed model; the large model's call `failAt` fails with a 503 (-1: none; 'first-large': its
 * first call of a request over the small model's window, before the router accepted one).
 */
async function routedSession(failAt: number | 'first-large', sticky = false, modelName?: string) {
  let failed = false;
  const logger = new CapturingLogger();
  const fails = (index: number, promptTokens: number): boolean =>
    failAt === 'first-large' ? !failed && promptTokens > 8_000 && (failed = true) : index === failAt;
  const large = new ScriptedLlm({
    model: 'scripted-large',
    window: 32_000,
    countTokens: ratioTokenCounter(1.2),
    script: toolThenAnswerScript(3_000),
    fail: ({ index, promptTokens }) => (fails(index, promptTokens) ? unavailable() : undefined),
  });
  const small = new ScriptedLlm({
    model: 'scripted-small',
    window: 8_000,
    countTokens: ratioTokenCounter(1.2),
    script: toolThenAnswerScript(3_000),
  });
  // `sticky`: a circuit breaker that stays on the small model after the large one's first error.
  let broken = false;
  const router: LlmRouter = (_models, _request, error) => {
    if (error === undefined) return sticky && broken ? 'small' : 'large';
    broken = true;
    return error.failedKeys.has('small') ? undefined : 'small';
  };
  const guard = new ContextGuard({
    contextWindow: 32_000,
    // No masking for cost: requests grow past the small model's window before the failover.
    maskStaleOutputTokens: 1_000_000,
    modelWindows: { 'scripted-large': 32_000, 'scripted-small': 8_000 },
    summarizer: new ScriptedSummarizer(),
    logger,
  });
  const model = new RoutedLlm({ models: { large, small }, router, ...(modelName ? { modelName } : {}) });
  const agent = new LlmAgent({ name: 'analyst', model, instruction: 'You analyse logs.', tools: [fetchLogsTool()] });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] });
  const session = await startSession(sessionService);
  const events = await runTurns(runner, session.id, 30);
  const status = guard.status(await storedSession(sessionService, session.id), 'analyst');
  return { events, small, status, logger };
}

describe('a RoutedLlm whose large model fails over once to its small one', () => {
  it('should keep the window the user set when the failover came before the router accepted a larger request', async () => {
    // Review 46: nothing over the small model's window accepted yet, the stated 8,000 was believed as the window.
    const { events, small, status } = await routedSession('first-large');
    expect(errorCodes(events)).toEqual([]);
    expect(small.rejectedRequests).toHaveLength(1);
    expect(status).toMatchObject({ window: 32_000, windowSource: 'option', rejectedCalls: 1, retriedCalls: 1 });
  });

  it("should keep the window the user set: the small model's refusal is a failover's, retried, not learned", async () => {
    const { events, small, status } = await routedSession(24);
    expect(errorCodes(events)).toEqual([]);
    expect(small.rejectedRequests).toHaveLength(1);
    expect(status).toMatchObject({ window: 32_000, windowSource: 'option', rejectedCalls: 1, retriedCalls: 1 });
    // As many reductions as without the failover: none came of it.
    const { status: calm } = await routedSession(-1);
    expect({ compactions: status.compactions, maskings: status.maskings }).toEqual({
      compactions: calm.compactions,
      maskings: calm.maskings,
    });
  });

  it('should hold the session to the small model once its router stays there: refused twice, not every few turns', async () => {
    // Review 46: each refusal a failover's, the window stayed 32,000 and the small model refused six times in 30 turns.
    const { events, small, status, logger } = await routedSession(24, true);
    expect(errorCodes(events)).toEqual([]);
    // Held from the second refusal for twenty calls, then one larger request probes the router (at most a third).
    expect(small.rejectedRequests.length).toBeGreaterThanOrEqual(2);
    expect(small.rejectedRequests.length).toBeLessThanOrEqual(3);
    expect(status.rejectedCalls).toBe(small.rejectedRequests.length);
    expect(logger.matching('the session is held to 8000 tokens')).toHaveLength(1);
  });

  it('should do the same for a RoutedLlm given a name of its own', async () => {
    // Review 49: renamed, its members were not read, and one 503 left the session at 12,192 tokens.
    const once = await routedSession(24, false, 'my-router');
    expect(once.small.rejectedRequests).toHaveLength(1);
    expect(once.status).toMatchObject({ window: 32_000, windowSource: 'option' });
    const sticky = await routedSession(24, true, 'my-router');
    expect(sticky.small.rejectedRequests.length).toBeLessThanOrEqual(3);
    expect(sticky.logger.matching('the session is held to 8000 tokens')).toHaveLength(1);
  });
});
