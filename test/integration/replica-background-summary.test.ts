/**
 * Background compaction across replicas: a summary one replica prepares is applied by whichever
 * replica reaches the threshold, so two Runners taking alternate turns of a session on one
 * database send exactly the requests, and make exactly the summarizer calls, of one Runner.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BasePlugin, DatabaseSessionService, type Session } from '@google/adk';
import { afterAll, describe, expect, it } from 'vitest';
import { ContextGuard, type CompactionRecord, type Summarizer } from '../../src/index.js';
import { decodeUsageRecord, stateKeysFor } from '../../src/internal.js';
import { CapturingLogger, ScriptedSummarizer } from '../../src/testing/index.js';
import {
  APP_NAME,
  errorCodes,
  USER_ID,
  createHarness,
  runTurn,
  storedSession,
  toolThenAnswerScript,
} from '../support/agent-harness.js';

const folder = mkdtempSync(join(tmpdir(), 'context-guard-replica-summary-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/**
 * About summaries (masking alone would make room), one summarizer call each: its window takes all a summary covers
 * (else two, summary/summarize-covered.ts, and a summary held until a compaction starts would wait for the next).
 */
const ONE_CALL = { maskKeepRecent: 0, summarizerContextWindow: 1_000_000 } as const;

/** When the summaries a replica starts may finish: at once, or only once some replica's call reaches a point. */
type Release = 'at-once' | 'at-compaction' | 'at-next-model-call';

/**
 * The summarizers of the replicas: the same prompt always gives the same summary, whichever replica asks.
 * Every prompt is kept, with the replica that made it; a summary held back waits for `releaseAll()`.
 */
function summarizers(release: Release) {
  const prompts: { prompt: string; replica: number }[] = [];
  let waiting: (() => void)[] = [];
  const releaseAll = (): void => {
    for (const open of waiting) open();
    waiting = [];
  };
  const of = (replica: number): Summarizer => ({
    name: 'recording',
    async summarize({ prompt }) {
      prompts.push({ prompt, replica });
      if (release !== 'at-once') await new Promise<void>((resolve) => waiting.push(resolve));
      return { text: `## Current state\nSummary of a prompt of ${prompt.length} characters.`, finishReason: 'STOP' };
    },
  });
  return { prompts, of, releaseAll };
}

/** Opens the held summaries when a call of its replica starts a compaction, or at every model call. */
class ReleasePlugin extends BasePlugin {
  constructor(
    private readonly when: Release,
    private readonly releaseAll: () => void,
  ) {
    super('release');
  }
  override async beforeModelCallback(): Promise<undefined> {
    if (this.when === 'at-next-model-call') this.releaseAll();
    return undefined;
  }
  override async beforeContextCompaction(): Promise<undefined> {
    if (this.when === 'at-compaction') this.releaseAll();
    return undefined;
  }
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
  /** Compactions that applied a summary prepared by another replica, and how long each waited for it. */
  readonly fromOtherReplica: number[];
  readonly compactions: number;
  /** The summarizer calls `status()` counts, once every summary made was stored. */
  readonly billedSummaries: number;
}

/** The summarizer calls `status()` counts in the session, once it counts `made` (or after two seconds). */
async function billedSummaries(guard: ContextGuard, read: () => Promise<Session>, made: number): Promise<number> {
  let counted = 0;
  for (let tries = 0; tries < 200; tries++) {
    counted = guard.status(await read(), 'worker').summarizerCalls;
    if (counted >= made) return counted;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return counted;
}

/** `turns` turns of one session, turn n on replica n % replicas; every replica has its own guard (and store, but on SQLite). */
async function run(world: World, replicas: number, turns: number, release: Release): Promise<Run> {
  const made = summarizers(release);
  const fromOtherReplica: number[] = [];
  const guards: ContextGuard[] = [];
  const harnesses = (await stores(world.url(), replicas, world.shared)).map((store, replica) => {
    const guard = new ContextGuard({ contextWindow: 8_000, summarizer: made.of(replica), ...ONE_CALL });
    guards.push(guard);
    guard.onCompaction((record) => {
      const preparedBy = made.prompts.at(-1)?.replica;
      if (record.prepared && preparedBy !== replica) fromOtherReplica.push(record.waitedMs ?? 0);
    });
    return createHarness({
      window: 8_000,
      ratio: 1.8,
      script: toolThenAnswerScript(1_500),
      sessionService: store,
      // Released before the guard's own hook runs: a summary then lands while that call goes on.
      plugins: [new ReleasePlugin(release, made.releaseAll), guard],
    });
  });
  const first = harnesses[0]!;
  const session = await first.sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
  for (let turn = 1; turn <= turns; turn++)
    await runTurn(harnesses[turn % replicas]!.runner, session.id, `Turn ${turn}: check the logs.`);
  made.releaseAll();
  const requests = harnesses
    .flatMap((harness) => harness.model.requests)
    .sort((a, b) => a.timestamp - b.timestamp || a.index - b.index);
  expect(requests.some((request) => request.rejected)).toBe(false);
  const stored = await storedSession(first.sessionService, session.id);
  return {
    requests: requests.map((request) => JSON.stringify([request.systemInstruction, request.contents])),
    prompts: made.prompts.map((each) => each.prompt),
    fromOtherReplica,
    compactions: decodeUsageRecord(stored.state[stateKeysFor('worker').usage]).compactions,
    billedSummaries: await billedSummaries(
      guards[0]!,
      () => storedSession(first.sessionService, session.id),
      made.prompts.length,
    ),
  };
}

/**
 * The same JSON with every object's keys sorted. PostgreSQL's jsonb keeps object keys in an order of its own,
 * and ADK reloads a session's events from storage when another writer appended since the invocation last did
 * (here, a summary landing in the middle of a call): the same function call then reaches the model with its
 * keys in another order, depending on when the summary landed.
 */
function sortedKeys(text: string): string {
  return JSON.stringify(JSON.parse(text), (_key, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)))
      : value,
  );
}

interface World {
  readonly name: string;
  /** Whether events come back from storage with their keys in the order they were written. */
  readonly keysKept: boolean;
  /** A new, empty database. */
  url(): string;
  readonly shared: boolean;
}

let files = 0;
const worlds: World[] = [
  { name: 'SQLite', keysKept: true, url: () => `sqlite://${join(folder, `db-${++files}.sqlite`)}`, shared: true },
];
const postgres = process.env['POSTGRES_URL'];
if (postgres) worlds.push({ name: 'PostgreSQL', keysKept: false, url: () => postgres, shared: false });

describe.each(worlds)('background compaction across replicas on $name', (world) => {
  it.each<Release>(['at-once', 'at-compaction', 'at-next-model-call'])(
    'should make the summarizer calls and send the requests of one Runner when two take alternate turns (summaries finish %s)',
    async (release) => {
      const single = await run(world, 1, 16, release);
      const pair = await run(world, 2, 16, release);
      expect(single.compactions).toBeGreaterThanOrEqual(2);
      expect(pair.prompts).toEqual(single.prompts);
      expect(pair.requests.map(sortedKeys)).toEqual(single.requests.map(sortedKeys));
      if (world.keysKept) expect(pair.requests).toEqual(single.requests);
      expect(pair.compactions).toBe(single.compactions);
      // Every summarizer call counted once, whichever replica made it and whichever applied it.
      expect(single.billedSummaries).toBe(single.prompts.length);
      expect(pair.billedSummaries).toBe(pair.prompts.length);
      // Some compactions of the pair applied the other replica's summary; held back to the threshold, after a wait.
      expect(pair.fromOtherReplica.length).toBeGreaterThan(0);
      if (release === 'at-compaction') expect(Math.max(...pair.fromOtherReplica)).toBeGreaterThan(0);
    },
  );

  it('should wait preparedSummaryWaitMs for a replica that never finishes its summary, then summarize in the call', async () => {
    const [storeA, storeB] = await stores(world.url(), 2, world.shared);
    // Replica A's summarizer never answers (a replica whose CPU is throttled between requests, or gone).
    const hanging: Summarizer = { name: 'hanging', summarize: () => new Promise(() => undefined) };
    const a = createHarness({
      window: 8_000,
      ratio: 1.8,
      script: toolThenAnswerScript(1_500),
      sessionService: storeA!,
      plugins: [new ContextGuard({ contextWindow: 8_000, summarizer: hanging, ...ONE_CALL })],
    });
    const summarizerB = new ScriptedSummarizer();
    const logger = new CapturingLogger();
    const compactions: CompactionRecord[] = [];
    const b = createHarness({
      window: 8_000,
      ratio: 1.8,
      script: toolThenAnswerScript(1_500),
      sessionService: storeB!,
      plugins: [
        new ContextGuard({
          contextWindow: 8_000,
          summarizer: summarizerB,
          ...ONE_CALL,
          prepareTurnsAhead: 0,
          preparedSummaryWaitMs: 300,
          logger,
          onCompaction: (record) => void compactions.push(record),
        }),
      ],
    });
    const session = await storeA!.createSession({ appName: APP_NAME, userId: USER_ID });
    let turn = 0;
    while (!(await storedSession(storeA!, session.id)).state[stateKeysFor('worker').preparation] && turn < 30)
      await runTurn(a.runner, session.id, `Turn ${++turn}: check the logs.`);
    expect(summarizerB.calls).toHaveLength(0);
    while (compactions.length === 0 && turn < 40)
      expect(errorCodes(await runTurn(b.runner, session.id, `Turn ${++turn}: check the logs.`))).toEqual([]);
    expect(compactions[0]).toMatchObject({ prepared: false, fallback: false });
    expect(compactions[0]!.waitedMs).toBeGreaterThanOrEqual(300);
    expect(summarizerB.calls).toHaveLength(1);
    expect(logger.matching(/did not arrive within \d+ ms; summarizing in this call/)).toHaveLength(1);
    expect([...a.model.rejectedRequests, ...b.model.rejectedRequests]).toEqual([]);
  });
});
