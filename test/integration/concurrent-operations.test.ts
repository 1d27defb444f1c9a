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
import { APP_NAME, USER_ID, errorCodes, runTurn } from '../support/agent-harness.js';
import { gate } from '../support/gate.js';
import { ContextGuard } from '../../src/index.js';
import { decodeUsageRecord, stateKeysFor } from '../../src/internal.js';
import { logText, ratioTokenCounter, ScriptedLlm, ScriptedSummarizer } from '../../src/testing/index.js';
import { callThenAnswer } from '../support/call-then-answer.js';

setLogLevel(LogLevel.ERROR);

const keys = stateKeysFor('worker');
const folder = mkdtempSync(join(tmpdir(), 'context-guard-operations-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A tool that returns logs, and on the turn `holdTurn` waits until the test opens the gate. */
function gatedWorld(sessionService: BaseSessionService) {
  const held = gate();
  const tool = new FunctionTool({
    name: 'fetch_logs',
    description: 'Returns server logs.',
    parameters: { type: 'OBJECT', properties: { turn: { type: 'INTEGER' } }, required: ['turn'] } as never,
    execute: async (input: unknown) => {
      const { turn } = input as { turn: number };
      if (turn === 4) {
        await held.wait();
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
  const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] });
  return { runner, guard, summarizer, inTool: held.reached, open: held.open };
}

async function turn(runner: Runner, sessionId: string, text: string): Promise<void> {
  expect(errorCodes(await runTurn(runner, sessionId, text))).toEqual([]);
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
      const session = await sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
      for (let n = 1; n <= 3; n++) await turn(world.runner, session.id, `Turn ${n}: check the logs.`);
      expect(world.summarizer.calls).toHaveLength(0);

      // The application's copy of the session is the one it read before the turn.
      const before = await sessionService.getSession({ appName: APP_NAME, userId: USER_ID, sessionId: session.id });
      const running = turn(world.runner, session.id, 'Turn 4: check the logs.');
      await world.inTool;
      await world.guard.requestCompaction({ sessionService, session: before!, agentName: 'worker' });
      world.open();
      await running;
      await turn(world.runner, session.id, 'Turn 5: check the logs.');

      const after = await sessionService.getSession({ appName: APP_NAME, userId: USER_ID, sessionId: session.id });
      const usage = decodeUsageRecord(after!.state[keys.usage]);
      expect(world.summarizer.calls).toHaveLength(1);
      expect(usage.compactions).toBe(1);
      expect(after!.state[keys.compactionRequest]).toBeNull();
      // Every call of the five turns is in the record: none was undone by the request's write.
      expect(usage.modelCalls).toBe(10);
    });
  }
});
