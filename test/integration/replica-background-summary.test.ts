/**
 * Background compaction across replicas: a summary one replica prepares is applied by whichever
 * replica reaches the threshold, so two Runners taking alternate turns of a session on one
 * database send exactly the requests, and make exactly the summarizer calls, of one Runner.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSessionService } from '@google/adk';
import { afterAll, describe, expect, it } from 'vitest';
import { ContextGuard, type ContextGuardOptions, type Summarizer } from '../../src/index.js';
import { decodeUsageRecord, stateKeysFor } from '../../src/internal.js';
import {
  APP_NAME,
  USER_ID,
  createHarness,
  runTurn,
  storedSession,
  toolThenAnswerScript,
} from '../support/agent-harness.js';

const folder = mkdtempSync(join(tmpdir(), 'context-guard-replica-summary-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The same prompt always gives the same summary, whichever replica asks; every prompt is kept. */
function recordingSummarizer(delayMs: number): Summarizer & { prompts: string[] } {
  const prompts: string[] = [];
  return {
    name: 'recording',
    prompts,
    async summarize({ prompt }) {
      prompts.push(prompt);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return { text: `## Current state\nSummary of a prompt of ${prompt.length} characters.`, finishReason: 'STOP' };
    },
  };
}

/**
 * The session services of `count` replicas: separate instances on PostgreSQL, as replicas are; on
 * SQLite one instance shared by the replicas' Runners, because two connections to one SQLite file
 * cannot write at the same time (ADK's transactions read before they write, and SQLite then fails the
 * second writer at once whatever its busy timeout: docs/reliability.md).
 */
async function stores(url: string, count: number, shared: boolean): Promise<DatabaseSessionService[]> {
  // One after the other: ADK's init creates the schema, and two inits racing on an empty database collide.
  const made: DatabaseSessionService[] = [];
  for (let i = 0; i < (shared ? 1 : count); i++) {
    const store = new DatabaseSessionService(url);
    await store.init();
    made.push(store);
  }
  return Array.from({ length: count }, (_, i) => made[i % made.length]!);
}

interface Run {
  readonly requests: string[];
  readonly prompts: string[];
  readonly compactions: number;
}

/** `turns` turns of one session, turn n on replica n % replicas; every replica has its own guard (and store, but on SQLite). */
async function run(
  world: World,
  replicas: number,
  turns: number,
  options: ContextGuardOptions,
  delayMs = 0,
): Promise<Run> {
  const summarizer = recordingSummarizer(delayMs);
  const harnesses = (await stores(world.url(), replicas, world.shared)).map((store) =>
    createHarness({
      window: 8_000,
      ratio: 1.8,
      script: toolThenAnswerScript(1_500),
      sessionService: store,
      plugins: [new ContextGuard({ contextWindow: 8_000, summarizer, maskKeepRecent: 0, ...options })],
    }),
  );
  const first = harnesses[0]!;
  const session = await first.sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
  for (let turn = 1; turn <= turns; turn++)
    await runTurn(harnesses[turn % replicas]!.runner, session.id, `Turn ${turn}: check the logs.`);
  const requests = harnesses
    .flatMap((harness) => harness.model.requests)
    .sort((a, b) => a.timestamp - b.timestamp || a.index - b.index);
  expect(requests.some((request) => request.rejected)).toBe(false);
  const stored = await storedSession(first.sessionService, session.id);
  return {
    requests: requests.map((request) => JSON.stringify([request.systemInstruction, request.contents])),
    prompts: summarizer.prompts,
    compactions: decodeUsageRecord(stored.state[stateKeysFor('worker').usage]).compactions,
  };
}

interface World {
  readonly name: string;
  /** A new, empty database. */
  url(): string;
  readonly shared: boolean;
}

let files = 0;
const worlds: World[] = [
  { name: 'SQLite', url: () => `sqlite://${join(folder, `db-${++files}.sqlite`)}`, shared: true },
];
const postgres = process.env['POSTGRES_URL'];
if (postgres) worlds.push({ name: 'PostgreSQL', url: () => postgres, shared: false });

describe.each(worlds)('background compaction across replicas on $name', (world) => {
  it('should make the summarizer calls and send the requests of one Runner when two take alternate turns', async () => {
    const single = await run(world, 1, 24, {});
    const pair = await run(world, 2, 24, {});
    expect(single.prompts.length).toBeGreaterThanOrEqual(2);
    expect(pair.prompts).toEqual(single.prompts);
    expect(pair.requests).toEqual(single.requests);
  });
});
