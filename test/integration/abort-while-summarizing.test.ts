/**
 * The user stops a turn (`runAsync`'s `abortSignal`) while the guard is summarizing. The thirty-fifth outside trial:
 * each abort logged `summarizer unavailable (failed)` at warn, an error of the summarizer's that never was.
 */
import { FunctionTool, InMemorySessionService, LlmAgent, Runner } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import {
  CapturingLogger,
  logText,
  ratioTokenCounter,
  ScriptedLlm,
  ScriptedSummarizer,
} from '../../src/testing/index.js';
import { APP_NAME, USER_ID, userMessage } from '../support/agent-harness.js';

const WINDOW = 8_000;

describe('a turn aborted while the guard summarizes', () => {
  it('should say the turn was aborted, at info, and no summarizer failure at warn', async () => {
    const fetchLogs = new FunctionTool({
      name: 'fetch_logs',
      description: 'Returns logs.',
      parameters: { type: 'OBJECT', properties: {} } as never,
      execute: () => ({ logs: logText(4_000, 3) }),
    });
    const model = new ScriptedLlm({
      window: WINDOW,
      countTokens: ratioTokenCounter(1.8),
      script: ({ request, index }) =>
        request.contents.at(-1)?.parts?.some((part) => part.functionResponse)
          ? { content: { role: 'model', parts: [{ text: `Answer ${index}.` }] } }
          : { content: { role: 'model', parts: [{ functionCall: { name: 'fetch_logs', args: {} } }] } },
    });
    const summarizer = new ScriptedSummarizer({ behavior: 'timeout' });
    const logger = new CapturingLogger();
    const guard = new ContextGuard({
      contextWindow: WINDOW,
      summarizer,
      prepareTurnsAhead: 0,
      maskKeepRecent: 0,
      logger,
    });
    const agent = new LlmAgent({ name: 'worker', model, instruction: 'Read logs.', tools: [fetchLogs] });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] });
    const { id } = await sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
    let aborted = 0;
    for (let turn = 1; turn <= 8; turn++) {
      const stop = new AbortController();
      const before = summarizer.calls.length;
      const watch = setInterval(() => summarizer.calls.length > before && stop.abort(), 5);
      for await (const event of runner.runAsync({
        userId: USER_ID,
        sessionId: id,
        newMessage: userMessage(`Turn ${turn}: read the logs.`),
        abortSignal: stop.signal,
      }))
        expect(event.errorCode).toBeUndefined();
      clearInterval(watch);
      if (stop.signal.aborted) aborted += 1;
    }
    expect(aborted).toBeGreaterThan(0);
    expect(logger.matching(/summarizer (failed|not available)/)).toEqual([]);
    expect(logger.matching('the turn was aborted while summarizing').length).toBeGreaterThan(0);
  });
});
