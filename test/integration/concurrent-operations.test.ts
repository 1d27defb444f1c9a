/**
 * The application's calls on a session while one of its turns is running, through the real ADK
 * Runner and session services.
 *
 * Guarantees:
 * - `requestCompaction` during a turn is served by the agent's next call: one compaction, made
 *   by the summarizer, whether the turn in flight writes its usage record before or after the
 *   request lands. Before, the request's flag lived in the usage record, which the turn then
 *   rewrote: the mark was cleared with nothing compacted;
 * - the request never rewrites the usage record from the caller's copy of the session: the
 *   turn's counts and calibration stay as the turn wrote them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DatabaseSessionService,
  FunctionTool,
  InMemorySessionService,
  LlmAgent,
  LogLevel,
  Runner,
  setLogLevel,
  type BaseSessionService,
} from '@google/adk';
import { afterAll, describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { decodeUsageRecord, stateKeysFor } from '../../src/internal.js';
import { logText, ratioTokenCounter, ScriptedLlm, ScriptedSummarizer } from '../../src/testing/index.js';
import { callThenAnswer } from '../support/call-then-answer.js';

setLogLevel(LogLevel.ERROR);

const APP = 'guard-operations';
const USER = 'user-o';
const keys = stateKeysFor('worker');
const folder = mkdtempSync(join(tmpdir(), 'context-guard-operations-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A tool that returns logs, and on the turn `holdTurn` waits until the test opens the gate. */
function gatedWorld(sessionService: BaseSessionService) {
  let entered: () => void = () => {};
  let open: () => void = () => {};
  const inTool = new Promise<void>((resolve) => (entered = resolve));
  const gate = new Promise<void>((resolve) => (open = resolve));
  const tool = new FunctionTool({
    name: 'fetch_logs',
    description: 'Returns server logs.',
    parameters: { type: 'OBJECT', properties: { turn: { type: 'INTEGER' } }, required: ['turn'] } as never,
    execute: async (input: unknown) => {
      const { turn } = input as { turn: number };
      if (turn === 4) {
        entered();
        await gate;
      }
      return { logs: logText(3_000, turn) };
    },
  });
  const model = new ScriptedLlm({
    window: 12_000,
    countTokens: ratioTokenCounter(1.5),
    script: callThenAnswer({
      call: ({ request }) => ({ name: 'fetch_logs', args: { turn: Math.ceil(request.contents.length / 4) } }),
      answer: () => 'The logs look normal.',
    }),
  });
  const summarizer = new ScriptedSummarizer();
  const guard = new ContextGuard({ contextWindow: 12_000, summarizer, prepareTurnsAhead: 0 });
  const agent = new LlmAgent({ name: 'worker', model, instruction: 'You read logs.', tools: [tool] });
  const runner = new Runner({ appName: APP, agent, sessionService, plugins: [guard] });
  return { runner, guard, summarizer, inTool, open };
}

async function turn(runner: Runner, sessionId: string, text: string): Promise<void> {
  for await (const event of runner.runAsync({
    userId: USER,
    sessionId,
    newMessage: { role: 'user', parts: [{ text }] },
  }))
    expect(event.errorCode).toBeUndefined();
}

describe('requestCompaction while a turn is running', () => {
  for (const store of ['memory', 'sqlite'] as const) {
    it(`should compact on the next call and keep the turn's usage record (${store})`, async () => {
      const sessionService =
        store === 'memory'
          ? new InMemorySessionService()
          : new DatabaseSessionService(`sqlite://${join(folder, 'rc.sqlite')}`);
      if (sessionService instanceof DatabaseSessionService) await sessionService.init();
      const world = gatedWorld(sessionService);
      const session = await sessionService.createSession({ appName: APP, userId: USER });
      for (let n = 1; n <= 3; n++) await turn(world.runner, session.id, `Turn ${n}: check the logs.`);
      expect(world.summarizer.calls).toHaveLength(0);

      // The application's copy of the session is the one it read before the turn.
      const before = await sessionService.getSession({ appName: APP, userId: USER, sessionId: session.id });
      const running = turn(world.runner, session.id, 'Turn 4: check the logs.');
      await world.inTool;
      await world.guard.requestCompaction({ sessionService, session: before!, agentName: 'worker' });
      world.open();
      await running;
      await turn(world.runner, session.id, 'Turn 5: check the logs.');

      const after = await sessionService.getSession({ appName: APP, userId: USER, sessionId: session.id });
      const usage = decodeUsageRecord(after!.state[keys.usage]);
      expect(world.summarizer.calls).toHaveLength(1);
      expect(usage.compactions).toBe(1);
      expect(after!.state[keys.compactionRequest]).toBeNull();
      // Every call of the five turns is in the record: none was undone by the request's write.
      expect(usage.modelCalls).toBe(10);
    });
  }
});
