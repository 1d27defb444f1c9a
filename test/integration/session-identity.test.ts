/**
 * A session is app + user + session id. Two users in each of two apps share
 * the session id `chat-1` (a front end that sends its own thread id), one
 * guard serves all four, and their turns run at the same time, so the guard's
 * per-session queue, shared summary and measures are all exercised across
 * them. Each user types a secret in their first message; no secret may reach another session's
 * requests, summaries or state. Run on both of ADK's session services.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSessionService, InMemorySessionService, Runner, type BaseSessionService } from '@google/adk';
import { afterAll, describe, expect, it } from 'vitest';
import { ContextGuard, type Summarizer } from '../../src/index.js';
import { decodeUsageRecord, stateKeysFor } from '../../src/internal.js';
import type { ScriptedLlm } from '../../src/testing/index.js';
import { logsAgent, logsModel, toolThenAnswerScript, userMessage } from '../support/agent-harness.js';

const SESSION_ID = 'chat-1';
const WINDOW = 8_000;
const TURNS = 8;
const folder = mkdtempSync(join(tmpdir(), 'context-guard-identity-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

interface Tenant {
  readonly appName: string;
  readonly userId: string;
  readonly secret: string;
  readonly runner: Runner;
  readonly model: ScriptedLlm;
}

/** Repeats every secret it finds in its prompt, the way a faithful summary keeps a card number. */
function echoingSummarizer(): Summarizer {
  return {
    name: 'echoing',
    async summarize({ prompt }) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const secrets = [...new Set(prompt.match(/CARD-[\w-]+/g) ?? [])];
      return {
        text: `## Current state\nThe user gave card ${secrets.join(', ')}. Logs were fetched.`,
        finishReason: 'STOP',
      };
    },
  };
}

function tenants(sessionService: BaseSessionService, guard: ContextGuard): Tenant[] {
  return ['app-a', 'app-b'].flatMap((appName) =>
    ['alice', 'bob'].map((userId, i) => {
      // The same script for everyone: the histories differ only in what the users typed.
      const model = logsModel({ window: WINDOW, ratio: 1.8, script: toolThenAnswerScript(3_000) });
      const runner = new Runner({ appName, agent: logsAgent(model), sessionService, plugins: [guard] });
      return { appName, userId, secret: `CARD-${appName}-${userId}-4111${i}`, runner, model };
    }),
  );
}

async function runTurn(tenant: Tenant, turn: number): Promise<void> {
  // Only the first message differs between users, so later histories look alike, as real ones often do.
  const text = turn === 1 ? `My card is ${tenant.secret}; check the logs.` : `Turn ${turn}: check the logs.`;
  for await (const event of tenant.runner.runAsync({
    userId: tenant.userId,
    sessionId: SESSION_ID,
    newMessage: userMessage(text),
  })) {
    if (event.errorCode)
      throw new Error(`${tenant.appName}/${tenant.userId}: ${event.errorCode} ${event.errorMessage ?? ''}`);
  }
}

async function expectIsolated(sessionService: BaseSessionService): Promise<void> {
  const guard = new ContextGuard({ contextWindow: WINDOW, summarizer: echoingSummarizer(), maskKeepRecent: 0 });
  const all = tenants(sessionService, guard);
  for (const tenant of all)
    await sessionService.createSession({ appName: tenant.appName, userId: tenant.userId, sessionId: SESSION_ID });
  for (let turn = 1; turn <= TURNS; turn++) await Promise.all(all.map((tenant) => runTurn(tenant, turn)));

  for (const tenant of all) {
    const others = all.filter((other) => other !== tenant).map((other) => other.secret);
    const sent = tenant.model.requests.map((request) => JSON.stringify(request.contents)).join('\n');
    const session = await sessionService.getSession({
      appName: tenant.appName,
      userId: tenant.userId,
      sessionId: SESSION_ID,
    });
    const stored = JSON.stringify(session?.state) + JSON.stringify(session?.events);
    for (const secret of others) {
      expect(sent, `${tenant.appName}/${tenant.userId} was sent ${secret}`).not.toContain(secret);
      expect(stored, `${tenant.appName}/${tenant.userId} stores ${secret}`).not.toContain(secret);
    }
    // The test only means something if each user's own secret went through their own summaries.
    expect(decodeUsageRecord(session?.state[stateKeysFor('worker').usage]).compactions).toBeGreaterThan(0);
    expect(sent).toContain(tenant.secret);
  }
}

describe('a session is app + user + session id', () => {
  it('should keep every user of a shared session id to their own data (InMemorySessionService)', async () => {
    await expectIsolated(new InMemorySessionService());
  });

  it('should keep every user of a shared session id to their own data (DatabaseSessionService on SQLite)', async () => {
    const store = new DatabaseSessionService(`sqlite://${join(folder, 'identity.sqlite')}`);
    await store.init();
    await expectIsolated(store);
  });
});
