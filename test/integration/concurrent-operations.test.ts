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
 *   turn's counts and calibration stay as the turn wrote them;
 * - a request made after a call read the mark, before that call's state is written (here from
 *   another plugin's after-model callback), is served by the next call: each request has its own
 *   id and a call marks only the one it read as handled. Before, the call cleared the mark
 *   whatever it held, and on a database session service the newer request was dropped (the SQLite
 *   case fails on that code; ADK's in-memory service orders writes by when they were made, so
 *   there the older clear already lost to the newer mark).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BasePlugin,
  DatabaseSessionService,
  FunctionTool,
  InMemorySessionService,
  LlmAgent,
  LogLevel,
  Runner,
  setLogLevel,
  type BaseSessionService,
  type Context,
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
      // The mark stays; the request it names is the one handled, so nothing is pending.
      expect(after!.state[keys.compactionRequestHandled]).toBe(after!.state[keys.compactionRequest]);
      // Every call of the five turns is in the record: none was undone by the request's write.
      expect(usage.modelCalls).toBe(10);
    });
  }
});

/**
 * Another plugin that asks for a compaction from the after-model callback of the first call that
 * finds `armed` set: after that call's guard read the mark, before its response event (which carries
 * the call's state delta) is stored.
 */
class RequestInFlight extends BasePlugin {
  armed = false;
  made = 0;
  constructor(
    private readonly sessionService: BaseSessionService,
    private readonly guard: ContextGuard,
  ) {
    super('request_in_flight');
  }
  override async afterModelCallback({ callbackContext }: { callbackContext: Context }) {
    if (!this.armed) return undefined;
    this.armed = false;
    const session = await this.sessionService.getSession({
      appName: APP_NAME,
      userId: USER_ID,
      sessionId: callbackContext.invocationContext.session.id,
    });
    await this.guard.requestCompaction({ sessionService: this.sessionService, session: session!, agentName: 'worker' });
    this.made++;
    return undefined;
  }
}

describe('requestCompaction made while the call serving an earlier one is in flight', () => {
  for (const store of ['memory', 'sqlite'] as const) {
    it(`should be served by the next call, not dropped by that call's write (${store})`, async () => {
      const sessionService =
        store === 'memory'
          ? new InMemorySessionService()
          : new DatabaseSessionService(`sqlite://${join(folder, 'rc-in-flight.sqlite')}`);
      if (sessionService instanceof DatabaseSessionService) await sessionService.init();
      const summarizer = new ScriptedSummarizer();
      const guard = new ContextGuard({ contextWindow: 12_000, summarizer, prepareTurnsAhead: 0 });
      const inFlight = new RequestInFlight(sessionService, guard);
      const model = new ScriptedLlm({
        window: 12_000,
        countTokens: ratioTokenCounter(1.5),
        // A turn that asks for no tools is one call: the call that serves A is the last of its turn.
        script: callThenAnswer({
          call: ({ request }) =>
            JSON.stringify(request.contents.at(-1)).includes('no tools')
              ? undefined
              : { name: 'fetch_logs', args: { turn: request.contents.length } },
          answer: () => 'The logs look normal.',
        }),
      });
      const tool = new FunctionTool({
        name: 'fetch_logs',
        description: 'Returns server logs.',
        parameters: { type: 'OBJECT', properties: { turn: { type: 'INTEGER' } }, required: ['turn'] } as never,
        execute: (input: unknown) => ({ logs: logText(1_500, (input as { turn: number }).turn) }),
      });
      const agent = new LlmAgent({ name: 'worker', model, instruction: 'You read logs.', tools: [tool] });
      const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard, inFlight] });
      const session = await sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
      for (let n = 1; n <= 3; n++) await turn(runner, session.id, `Turn ${n}: check the logs.`);
      expect(summarizer.calls).toHaveLength(0);

      // Request A before turn 4, whose one call serves it; request B lands during that call. Turn 4
      // brings its own logs, so B's compaction on turn 5 has something to summarize.
      const before = await sessionService.getSession({ appName: APP_NAME, userId: USER_ID, sessionId: session.id });
      await guard.requestCompaction({ sessionService, session: before!, agentName: 'worker' });
      inFlight.armed = true;
      await turn(runner, session.id, `Turn 4: no tools, read these logs: ${logText(3_000, 4)}`);
      expect({ made: inFlight.made, summaries: summarizer.calls.length }).toEqual({ made: 1, summaries: 1 });
      await turn(runner, session.id, 'Turn 5: check the logs.');

      const after = await sessionService.getSession({ appName: APP_NAME, userId: USER_ID, sessionId: session.id });
      // B was served on turn 5: a second compaction, made by the summarizer, and nothing left pending.
      expect(summarizer.calls).toHaveLength(2);
      expect(decodeUsageRecord(after!.state[keys.usage]).compactions).toBe(2);
      expect(after!.state[keys.compactionRequestHandled]).toBe(after!.state[keys.compactionRequest]);
      await turn(runner, session.id, 'Turn 6: check the logs.');
      expect(summarizer.calls).toHaveLength(2);
    });
  }
});
