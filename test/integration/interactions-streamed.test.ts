/**
 * Gemini's Interactions API streamed (`streamingMode: SSE`): ADK 2.0.0 yields a function call three times
 * and a final text twice, ran the tool for each copy and stored every copy, while the server's chain holds
 * one. Through a real Runner and ADK's real Gemini code path, the server emulated offline
 * (test/support/interactions-server.ts): the guard's model wrapper drops the repeats, so the tool runs once,
 * the session holds what the server holds and the guard compacts as often as when not streamed.
 */
import { InMemorySessionService, LlmAgent, RoutedLlm, Runner, StreamingMode, type Event } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { APP_NAME, errorCodes, fetchLogsTool, startSession, storedSession, USER_ID } from '../support/agent-harness.js';
import { InteractionsServer } from '../support/interactions-server.js';

const WINDOW = 8_000;
const TURNS = 24;

interface RunOptions {
  /** A text step before each call. */
  readonly textBeforeCall?: boolean;
  /** The model behind a `RoutedLlm` of one member. */
  readonly routed?: boolean;
}

async function run(streamed: boolean, options: RunOptions = {}) {
  const server = new InteractionsServer(WINDOW, 2_400, options.textBeforeCall);
  const member = server.model();
  const model = options.routed ? new RoutedLlm({ models: { member }, router: () => 'member' }) : member;
  // The summarizer is the agent's own model: its counted calls calibrate a streamed agent, which reports no usage.
  const guard = new ContextGuard({ contextWindow: WINDOW, prepareTurnsAhead: 0 });
  const agent = new LlmAgent({
    name: 'worker',
    model,
    instruction: 'You analyse logs.',
    tools: [fetchLogsTool()],
  });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] });
  const { id } = await startSession(sessionService);
  const events: Event[] = [];
  const runConfig = streamed ? { streamingMode: StreamingMode.SSE } : undefined;
  for (let turn = 1; turn <= TURNS; turn++) {
    const newMessage = { role: 'user', parts: [{ text: `Turn ${turn}: check the logs.` }] };
    for await (const event of runner.runAsync({ userId: USER_ID, sessionId: id, newMessage, runConfig }))
      events.push(event);
  }
  const session = await storedSession(sessionService, id);
  const freshChains = server.served.slice(1).filter((call) => call.previousId === undefined).length;
  return { events, session, freshChains, status: guard.status(session, 'worker'), server };
}

function callIds(events: readonly Event[], kind: 'functionCall' | 'functionResponse'): string[] {
  return events.flatMap((event) => (event.content?.parts ?? []).flatMap((part) => part[kind]?.id ?? []));
}

describe('Gemini Interactions API, streamed', () => {
  it('should run each tool call once and store it once, as the server holds it', async () => {
    const { events, session, server } = await run(true);
    expect(errorCodes(events)).toEqual([]);
    const calls = callIds(session.events, 'functionCall');
    expect(calls.length).toBeGreaterThanOrEqual(TURNS);
    // Before: every call id three times, each with its own run of the tool.
    expect(new Set(calls).size).toBe(calls.length);
    expect(callIds(session.events, 'functionResponse')).toEqual(calls);
    const finalTexts = session.events.filter(
      (event) => !event.partial && event.content?.parts?.[0]?.text?.startsWith('Analysis'),
    );
    expect(finalTexts).toHaveLength(TURNS);
    expect(server.served.some((call) => call.failed)).toBe(false);
  });

  it('should run each call once when the model says something before it, also behind a RoutedLlm', async () => {
    // Review 47: a text (or a thought) before the call came with it in ADK's aggregate, and the call ran twice; behind
    // a RoutedLlm the model was not seen as in Interactions mode, and every call ran three times.
    for (const routed of [false, true]) {
      const { events, session } = await run(true, { textBeforeCall: true, routed });
      expect(errorCodes(events)).toEqual([]);
      const calls = callIds(session.events, 'functionCall');
      expect(calls.length).toBeGreaterThanOrEqual(TURNS);
      expect(new Set(calls).size).toBe(calls.length);
      expect(callIds(session.events, 'functionResponse')).toEqual(calls);
    }
  });

  it('should compact about as often as the same run not streamed', async () => {
    const plain = await run(false);
    const streamed = await run(true);
    expect(plain.status.compactions).toBeGreaterThan(0);
    // Before: the three copies of each call counted in the chain made it compact about every second turn.
    expect(streamed.status.compactions).toBeLessThanOrEqual(plain.status.compactions + 1);
    expect(streamed.freshChains).toBeLessThanOrEqual(plain.freshChains + 2);
    expect(streamed.status.serverChainTokens).toBeLessThan(WINDOW);
  });
});
