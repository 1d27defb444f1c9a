/**
 * Live mode (`runLive`) calls no model callback: the guard cannot measure or reduce what ADK sends there, the
 * session's whole history included. The thirty-fifth outside trial: after 40 guarded turns, 6.9 times the window went
 * out as the connection's history with nothing said. It must be said, once.
 */
import { InMemorySessionService, LiveRequestQueue, LlmAgent, Runner, type BaseLlmConnection } from '@google/adk';
import type { LlmResponse } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { CapturingLogger, ratioTokenCounter, ScriptedLlm } from '../../src/testing/index.js';
import { APP_NAME, runTurn, USER_ID } from '../support/agent-harness.js';

/** A scripted model with a live connection that answers once what it is sent, and keeps the history it got. */
class LiveScriptedLlm extends ScriptedLlm {
  history: unknown[] | undefined;

  override async connect(): Promise<BaseLlmConnection> {
    let answered: () => void = () => undefined;
    const sent = new Promise<void>((resolve) => (answered = resolve));
    return {
      sendHistory: async (history) => void (this.history = history),
      sendContent: async () => answered(),
      sendRealtime: async () => undefined,
      async *receive(): AsyncGenerator<LlmResponse, void, void> {
        await sent;
        yield { content: { role: 'model', parts: [{ text: 'Live answer.' }] }, turnComplete: true };
      },
      close: async () => undefined,
    };
  }
}

describe('a guarded agent run live', () => {
  it('should warn once that nothing sent live is measured or reduced', async () => {
    const model = new LiveScriptedLlm({
      window: 16_000,
      countTokens: ratioTokenCounter(1.8),
      script: ({ index }) => ({ content: { role: 'model', parts: [{ text: `Answer ${index}.` }] } }),
    });
    const logger = new CapturingLogger();
    const guard = new ContextGuard({ contextWindow: 16_000, logger });
    const agent = new LlmAgent({ name: 'voice', model, instruction: 'Answer.' });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] });
    const { id } = await sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
    for (let turn = 1; turn <= 3; turn++) await runTurn(runner, id, `Turn ${turn}: note this.`);
    expect(logger.matching('live mode')).toEqual([]);
    for (let run = 0; run < 2; run++) {
      const queue = new LiveRequestQueue();
      const stop = new AbortController();
      setTimeout(() => queue.sendContent({ role: 'user', parts: [{ text: 'By voice now.' }] }), 10);
      for await (const event of runner.runLive({
        userId: USER_ID,
        sessionId: id,
        liveRequestQueue: queue,
        abortSignal: stop.signal,
      }))
        if (event.turnComplete) {
          queue.close();
          stop.abort();
        }
    }
    expect(model.history?.length).toBeGreaterThan(0);
    const warned = logger.matching(/agent 'voice' runs in live mode \(runLive\)/);
    expect(warned).toHaveLength(1);
    expect(warned[0]?.level).toBe('warn');
  });
});
