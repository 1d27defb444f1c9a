/**
 * No pin is lost when the application and the agent pin at the same time, through the real ADK
 * Runner and session services (in memory and SQLite).
 *
 * Guarantees:
 * - `guard.pin` while a turn in which the model calls `pin_context` runs keeps both pins;
 * - `guard.pin` with a copy of the session read before such a turn keeps both pins;
 * - two `guard.pin` calls for every agent (`*`) at the same time keep both pins;
 * - a session stored with the old pin list (one key for all of an agent's pins) keeps its pins,
 *   first, beside the new ones, and the old list is left as it was.
 * Before, every writer wrote the agent's whole pin list from its own copy, and the last write
 * dropped the other's pin. Each pin now has its own state key, so no write replaces another's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createEvent,
  createEventActions,
  DatabaseSessionService,
  FunctionTool,
  InMemorySessionService,
  LlmAgent,
  LogLevel,
  Runner,
  setLogLevel,
  type BaseSessionService,
} from '@google/adk';
import type { Content } from '@google/genai';
import { afterAll, describe, expect, it } from 'vitest';
import { APP_NAME, USER_ID, errorCodes, runTurn, storedSession } from '../support/agent-harness.js';
import { gate } from '../support/gate.js';
import { ContextGuard, pinContextTool } from '../../src/index.js';
import { PINNED_MARKER, stateKeysFor } from '../../src/internal.js';
import { logText, ratioTokenCounter, ScriptedLlm } from '../../src/testing/index.js';

setLogLevel(LogLevel.ERROR);

const MODEL_FACT = 'Budget cap: 4,000 EUR';
const folder = mkdtempSync(join(tmpdir(), 'context-guard-pins-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let databases = 0;
async function sessionServiceFor(store: 'memory' | 'sqlite'): Promise<BaseSessionService> {
  if (store === 'memory') return new InMemorySessionService();
  const service = new DatabaseSessionService(`sqlite://${join(folder, `pins-${++databases}.sqlite`)}`);
  await service.init();
  return service;
}

/**
 * A worker whose model, on a turn that asks it to pin, calls `pin_context` and then `fetch_logs` in
 * one response; `fetch_logs` waits for the test's gate, so the pin is made but not yet stored.
 */
function pinningWorld(sessionService: BaseSessionService) {
  const held = gate();
  const fetchLogs = new FunctionTool({
    name: 'fetch_logs',
    description: 'Returns server logs.',
    parameters: { type: 'OBJECT', properties: {} } as never,
    execute: async () => {
      await held.wait();
      return { logs: logText(200, 1) };
    },
  });
  const guard = new ContextGuard({ contextWindow: 12_000 });
  const model = new ScriptedLlm({
    window: 12_000,
    countTokens: ratioTokenCounter(1.5),
    script: ({ request }) => {
      const last = request.contents[request.contents.length - 1];
      const asked = last?.parts?.some((part) => part.text?.includes('pin the budget')) ?? false;
      const content: Content = asked
        ? {
            role: 'model',
            parts: [
              { functionCall: { name: 'pin_context', args: { fact: MODEL_FACT } } },
              { functionCall: { name: 'fetch_logs', args: {} } },
            ],
          }
        : { role: 'model', parts: [{ text: 'Noted.' }] };
      return { content };
    },
  });
  const agent = new LlmAgent({
    name: 'worker',
    model,
    instruction: 'You plan the trip.',
    tools: [pinContextTool(guard), fetchLogs],
  });
  const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] });
  return { runner, guard, model, inTool: held.reached, open: held.open };
}

async function turn(runner: Runner, sessionId: string, text: string): Promise<void> {
  expect(errorCodes(await runTurn(runner, sessionId, text))).toEqual([]);
}

const read = storedSession;

/** The pinned content of the model's last request. */
function lastPinned(model: ScriptedLlm): string {
  const last = model.requests[model.requests.length - 1];
  const text = last?.contents[0]?.parts?.[0]?.text ?? '';
  return text.startsWith(PINNED_MARKER) ? text : '';
}

describe('pins written at the same time', () => {
  for (const store of ['memory', 'sqlite'] as const) {
    it(`should keep the application's pin and the model's pin made while the turn runs (${store})`, async () => {
      const sessionService = await sessionServiceFor(store);
      const world = pinningWorld(sessionService);
      const session = await sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
      await turn(world.runner, session.id, 'Hello.');

      const running = turn(world.runner, session.id, 'Please pin the budget.');
      await world.inTool;
      // The model's pin is made, not stored yet; the application reads the session now and pins.
      await world.guard.pin({
        sessionService,
        session: await read(sessionService, session.id),
        text: 'Customer: ACME-204',
        agentName: 'worker',
      });
      world.open();
      await running;
      await turn(world.runner, session.id, 'Next question.');

      const pinned = lastPinned(world.model);
      expect(pinned).toContain(MODEL_FACT);
      expect(pinned).toContain('Customer: ACME-204');
    });

    it(`should keep the model's pin when the application pins with a copy read before the turn (${store})`, async () => {
      const sessionService = await sessionServiceFor(store);
      const world = pinningWorld(sessionService);
      const session = await sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
      await turn(world.runner, session.id, 'Hello.');
      const before = await read(sessionService, session.id);

      world.open();
      await turn(world.runner, session.id, 'Please pin the budget.');
      await world.guard.pin({ sessionService, session: before, text: 'Customer: ACME-204', agentName: 'worker' });
      await turn(world.runner, session.id, 'Next question.');

      const pinned = lastPinned(world.model);
      expect(pinned).toContain(MODEL_FACT);
      expect(pinned).toContain('Customer: ACME-204');
    });

    it(`should keep both of two pins for every agent made at the same time (${store})`, async () => {
      const sessionService = await sessionServiceFor(store);
      const world = pinningWorld(sessionService);
      const session = await sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
      await turn(world.runner, session.id, 'Hello.');
      const [first, second] = [await read(sessionService, session.id), await read(sessionService, session.id)];

      await Promise.all([
        world.guard.pin({ sessionService, session: first, text: 'Customer: ACME-204' }),
        world.guard.pin({ sessionService, session: second, text: 'Never book night trains.' }),
      ]);
      await turn(world.runner, session.id, 'Next question.');

      const pinned = lastPinned(world.model);
      expect(pinned).toContain('Customer: ACME-204');
      expect(pinned).toContain('Never book night trains.');
    });

    it(`should keep the pins of a session stored with the old pin list (${store})`, async () => {
      const sessionService = await sessionServiceFor(store);
      const world = pinningWorld(sessionService);
      const session = await sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
      // As versions before one key per pin stored them: the whole list under one key.
      const oldList = [{ id: 'pin-old', text: 'Trip: Lisbon, 3-7 June', source: 'application', createdAt: 1 }];
      await sessionService.appendEvent({
        session,
        event: createEvent({
          invocationId: 'old-version-pin',
          author: 'user',
          actions: createEventActions({ stateDelta: { [stateKeysFor('worker').pins]: oldList } }),
        }),
      });
      const before = await read(sessionService, session.id);

      world.open();
      await turn(world.runner, session.id, 'Please pin the budget.');
      await world.guard.pin({ sessionService, session: before, text: 'Customer: ACME-204', agentName: 'worker' });
      await turn(world.runner, session.id, 'Next question.');

      const lines = lastPinned(world.model).split('\n').slice(1);
      expect(lines[0]).toBe('- Trip: Lisbon, 3-7 June');
      expect(lines.slice(1).sort()).toEqual([`- ${MODEL_FACT}`, '- Customer: ACME-204']);
      expect((await read(sessionService, session.id)).state[stateKeysFor('worker').pins]).toEqual(oldList);
    });
  }
});
