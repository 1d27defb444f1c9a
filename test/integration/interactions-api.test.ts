/**
 * Gemini's Interactions API (`new Gemini({ useInteractionsApi: true })`): ADK sends only the latest
 * user turn with `previousInteractionId`, and the history grows on the server. Through a real Runner
 * and ADK's real Gemini code path, with the server emulated offline (test/support/interactions-server.ts):
 * without the guard the chain overflows; with it, fresh chains start at the threshold with the
 * summary first, and a failed interaction stating an overflow is retried inside its call on a fresh chain.
 */
import { InMemorySessionService, LlmAgent, Runner, type BasePlugin, type SingleBeforeModelCallback } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { decodeUsageRecord, stateKeysFor } from '../../src/internal.js';
import { SUMMARY_MARKER } from '../../src/summary/inject-summary.js';
import { ScriptedSummarizer } from '../../src/testing/index.js';
import {
  APP_NAME,
  errorCodes,
  fetchLogsTool,
  runTurns,
  startSession,
  storedSession,
} from '../support/agent-harness.js';
import { InteractionsServer } from '../support/interactions-server.js';

const WINDOW = 8_000;
const TURNS = 30;

function run(server: InteractionsServer, plugins: BasePlugin[], beforeModelCallback?: SingleBeforeModelCallback) {
  const agent = new LlmAgent({
    name: 'worker',
    model: server.model(),
    instruction: 'You analyse server logs.',
    tools: [fetchLogsTool()],
    ...(beforeModelCallback ? { beforeModelCallback } : {}),
  });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins });
  return {
    sessionService,
    async turns(to: number) {
      const session = await startSession(sessionService);
      const events = await runTurns(runner, session.id, to);
      return { events, session: await storedSession(sessionService, session.id) };
    },
  };
}

function firstText(input: InteractionsServer['served'][number]['input']): string {
  return input.find((step) => step.type === 'user_input')?.content?.[0]?.text ?? '';
}

describe('Gemini Interactions API', () => {
  it('should overflow on the server without the guard (the errorCode reaches the user)', async () => {
    const server = new InteractionsServer(WINDOW, 2_400);
    const { events } = await run(server, []).turns(TURNS);
    // ADK chains every call: only the first one is sent without a previous interaction.
    expect(server.served.filter((call) => call.previousId === undefined)).toHaveLength(1);
    expect(server.served.some((call) => call.failed)).toBe(true);
    expect(errorCodes(events).length).toBeGreaterThan(0);
  });

  it('should start fresh chains at the threshold, summary first, and never overflow over 30 turns', async () => {
    const server = new InteractionsServer(WINDOW, 2_400);
    const guard = new ContextGuard({
      contextWindow: WINDOW,
      summarizer: new ScriptedSummarizer(),
      prepareTurnsAhead: 0,
    });
    const { events, session } = await run(server, [guard]).turns(TURNS);
    expect(errorCodes(events)).toEqual([]);
    expect(server.served.filter((call) => call.failed)).toEqual([]);
    const fresh = server.served.slice(1).filter((call) => call.previousId === undefined);
    expect(fresh.length).toBeGreaterThan(0);

    for (const call of fresh) expect(firstText(call.input).startsWith(SUMMARY_MARKER)).toBe(true);
    // Between fresh chains ADK goes on chaining: most calls send only the latest turn.
    expect(server.served.filter((call) => call.previousId !== undefined).length).toBeGreaterThan(fresh.length * 3);
    // The conversation goes on: the last turn ends with the model's answer.
    expect(events.at(-1)?.content?.parts?.[0]?.text).toMatch(/^Analysis/);
    const status = guard.status(session, 'worker');
    expect(status.interactionsApi).toBe(true);
    expect(status.freshChains).toBe(fresh.length);
    expect(status.serverChainTokens).toBeGreaterThan(0);
    expect(status.serverChainTokens).toBeLessThan(WINDOW);
  });

  it("should start no more fresh chains when the agent's callback drops history: the server still counts its chain", async () => {
    // A callback keeping the last four contents; on a chained call the server counts its whole chain anyway.
    const lastFour: SingleBeforeModelCallback = ({ request }) => {
      if (request.contents.length > 4) request.contents = request.contents.slice(-4);
      return undefined;
    };
    const freshChains = async (callback?: SingleBeforeModelCallback): Promise<number> => {
      const server = new InteractionsServer(32_000, 2_400);
      const guard = new ContextGuard({
        contextWindow: 32_000,
        summarizer: new ScriptedSummarizer(),
        prepareTurnsAhead: 0,
      });
      const { events } = await run(server, [guard], callback).turns(TURNS);
      expect(errorCodes(events)).toEqual([]);
      return server.served.slice(1).filter((call) => call.previousId === undefined).length;
    };
    const without = await freshChains();
    // Before: the count was paired with the four contents' estimate, and 7 chains started where 1 did without it.
    expect(await freshChains(lastFour)).toBeLessThanOrEqual(without + 1);
  });

  it('should retry a failed interaction that states an overflow on a fresh chain, inside its call', async () => {
    const server = new InteractionsServer(WINDOW, 2_400);
    // No window option: gemini-2.5-flash is 1M in the registry, so only the server's failure tells the guard.
    const guard = new ContextGuard({ summarizer: new ScriptedSummarizer(), prepareTurnsAhead: 0 });
    const { events, session } = await run(server, [guard]).turns(TURNS);
    const failedAt = server.served.findIndex((call) => call.failed);
    expect(failedAt).toBeGreaterThan(0);
    // The same model call sends the request again, whole, as a new chain.
    expect(server.served[failedAt + 1]?.previousId).toBeUndefined();
    expect(firstText(server.served[failedAt + 1]!.input).startsWith(SUMMARY_MARKER)).toBe(true);
    expect(errorCodes(events)).toEqual([]);
    const usage = decodeUsageRecord(session.state[stateKeysFor('worker').usage]);
    expect(usage.learnedWindow).toBe(WINDOW);
    expect(usage.retriedCalls).toBe(server.served.filter((call) => call.failed).length);
    expect(usage.retriedCalls).toBe(1);
  });
});
