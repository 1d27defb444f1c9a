/**
 * Counts that add up: concurrent turns of one session, and two replicas serving one session at the
 * same time, each work on their own copy of the session, so a counter read, incremented and written
 * back in state loses the other turns' increments. `status()` and the telemetry must still equal
 * what happened, taken from sources that never read the guard's state: the requests the scripted
 * model received, the summarizer's calls, the `onCompaction` records and the masking log lines.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSessionService, InMemorySessionService, type BaseSessionService } from '@google/adk';
import { SqliteDriver } from '@mikro-orm/sqlite';
import type { DataPoint } from '@opentelemetry/sdk-metrics';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { callCostUsd, ContextGuard, type AgentContextStatus, type CompactionRecord } from '../../src/index.js';
import {
  CapturingLogger,
  logText,
  promptTooLongError,
  ratioTokenCounter,
  ScriptedLlm,
  ScriptedSummarizer,
} from '../../src/testing/index.js';
import { callThenAnswer } from '../support/call-then-answer.js';
import { APP_NAME, USER_ID, createHarness, runTurn, storedSession, type Harness } from '../support/agent-harness.js';
import { metricsProbe, type MetricsProbe } from '../support/metrics-probe.js';

const WINDOW = 8_000;
const PRICE = { input: 1.25, cachedInput: 0.125, output: 10 };
/** What the scripted model reports as output tokens for every answer (its default). */
const OUTPUT_TOKENS = 50;
/**
 * A log read, then a long analysis: masking the old log reads makes room for a while, and the
 * analyses, which masking leaves alone, then need summaries. Payloads depend on the conversation
 * only, so every replica answers alike.
 */
const analystScript = callThenAnswer({
  call: ({ request }) => ({ name: 'fetch_logs', args: { size: 3_000, seed: request.contents.length + 1 } }),
  answer: ({ request }) => `Analysis ${request.contents.length}: ${logText(2_500, request.contents.length)}`,
});
const folder = mkdtempSync(join(tmpdir(), 'context-guard-counts-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let probe: MetricsProbe | undefined;
afterEach(async () => {
  await probe?.shutdown();
  probe = undefined;
});

/** One process serving the app: its own guard, runner, model, summarizer and witnesses. */
interface Replica {
  readonly harness: Harness;
  readonly guard: ContextGuard;
  readonly summarizer: ScriptedSummarizer;
  readonly records: CompactionRecord[];
  readonly logger: CapturingLogger;
}

function replica(sessionService: BaseSessionService): Replica {
  const summarizer = new ScriptedSummarizer();
  const records: CompactionRecord[] = [];
  const logger = new CapturingLogger();
  const guard = new ContextGuard({
    contextWindow: WINDOW,
    summarizer,
    // Summaries made in the call only: what is counted is what the turns did.
    prepareTurnsAhead: 0,
    prices: { 'scripted-model': PRICE },
    logger,
    onCompaction: (record) => void records.push(record),
  });
  const harness = createHarness({
    window: WINDOW,
    ratio: 1.8,
    script: analystScript,
    sessionService,
    plugins: [guard],
  });
  return { harness, guard, summarizer, records, logger };
}

/** A lock shared by the processes that write one SQLite file (SQLite's own file lock, in one process here). */
class WriteLock {
  private tail: Promise<unknown> = Promise.resolve();
  run<T>(write: () => Promise<T>): Promise<T> {
    const done = this.tail.then(write, write);
    this.tail = done.catch(() => undefined);
    return done;
  }
}

/**
 * One process's view of a SQLite file. ADK's write transactions start deferred, so SQLite refuses
 * the second of two concurrent writers (SQLITE_BUSY) instead of making it wait; the writes of the
 * processes sharing a file wait for each other here, while their turns and model calls overlap.
 */
class SqliteStore extends DatabaseSessionService {
  constructor(
    file: string,
    private readonly lock: WriteLock,
  ) {
    super({
      driver: SqliteDriver,
      dbName: join(folder, file),
      // Reads wait for a write in progress instead of failing.
      pool: {
        afterCreate: (connection: { configure(option: 'busyTimeout', ms: number): void }, done: () => void) => {
          connection.configure('busyTimeout', 30_000);
          done();
        },
      },
    });
  }

  override appendEvent(
    request: Parameters<DatabaseSessionService['appendEvent']>[0],
  ): ReturnType<DatabaseSessionService['appendEvent']> {
    return this.lock.run(() => super.appendEvent(request));
  }
}

async function database(file: string, lock = new WriteLock()): Promise<DatabaseSessionService> {
  const store = new SqliteStore(file, lock);
  await store.init();
  return store;
}

/** `rounds` rounds of one turn per runner, all of a round at the same time. */
async function concurrentRounds(replicas: readonly Replica[], sessionId: string, rounds: number, perRound: number) {
  let turn = 0;
  for (let round = 0; round < rounds; round++) {
    await Promise.all(
      Array.from({ length: perRound }, () => {
        turn++;
        const serving = replicas[turn % replicas.length]!;
        return runTurn(serving.harness.runner, sessionId, `Turn ${turn}: check the logs.`);
      }),
    );
  }
  return turn;
}

/** What happened, from the models, the summarizers, the listeners and the log: never from guard state. */
function happened(replicas: readonly Replica[], turns: number) {
  const requests = replicas.flatMap((each) => each.harness.model.requests);
  const accepted = requests.filter((request) => !request.rejected);
  const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
  return {
    modelCalls: requests.length,
    invocations: turns,
    compactions: sum(replicas.map((each) => each.records.length)),
    summarizerCalls: sum(replicas.map((each) => each.summarizer.calls.length)),
    maskings: sum(replicas.map((each) => each.logger.matching('masked old tool results').length)),
    rejectedCalls: requests.length - accepted.length,
    promptTokens: sum(accepted.map((request) => request.promptTokens)),
    cachedPromptTokens: sum(accepted.map((request) => request.cachedPromptTokens)),
    outputTokens: OUTPUT_TOKENS * accepted.length,
    costUsd: sum(
      accepted.map((request) =>
        callCostUsd(PRICE, {
          promptTokens: request.promptTokens,
          cachedPromptTokens: request.cachedPromptTokens,
          outputTokens: OUTPUT_TOKENS,
        }),
      ),
    ),
  };
}

function expectCounts(status: AgentContextStatus, truth: ReturnType<typeof happened>): void {
  // The scenario must exercise what is counted, or the equalities below prove nothing.
  expect(truth.compactions).toBeGreaterThan(1);
  expect(truth.maskings).toBeGreaterThan(0);
  // A summary takes two calls where what it covers does not fit the summarizer's window at once.
  expect(truth.summarizerCalls).toBeGreaterThanOrEqual(truth.compactions);
  expect({
    summarizerCalls: status.summarizerCalls,
    modelCalls: status.modelCalls,
    invocations: status.invocations,
    compactions: status.compactions,
    maskings: status.maskings,
    rejectedCalls: status.rejectedCalls,
    promptTokens: status.promptTokens,
    cachedPromptTokens: status.cachedPromptTokens,
    outputTokens: status.outputTokens,
  }).toEqual({
    summarizerCalls: truth.summarizerCalls,
    modelCalls: truth.modelCalls,
    invocations: truth.invocations,
    compactions: truth.compactions,
    maskings: truth.maskings,
    rejectedCalls: truth.rejectedCalls,
    promptTokens: truth.promptTokens,
    cachedPromptTokens: truth.cachedPromptTokens,
    outputTokens: truth.outputTokens,
  });
  expect(status.costUsd).toBeCloseTo(truth.costUsd, 9);
  expect(status.unpricedCalls).toBe(0);
  expect(status.countsFrom).toBe('events');
}

/** The guard's counters as exported to OpenTelemetry, summed over their attributes. */
async function exportedTotals(metrics: MetricsProbe) {
  const exported = await metrics.exported();
  const total = (name: string, type?: string) =>
    exported
      .filter((metric) => metric.descriptor.name === name)
      // Counters: one number per data point.
      .flatMap((metric) => metric.dataPoints as readonly DataPoint<number>[])
      .filter((point) => type === undefined || point.attributes['gen_ai.token.type'] === type)
      .reduce((sum, point) => sum + Number(point.value), 0);
  return {
    compactions: total('gen_ai.context_guard.compactions'),
    maskings: total('gen_ai.context_guard.maskings'),
    input: total('gen_ai.context_guard.usage.tokens', 'input'),
    cached: total('gen_ai.context_guard.usage.tokens', 'cached_input'),
    output: total('gen_ai.context_guard.usage.tokens', 'output'),
    cost: total('gen_ai.context_guard.usage.cost'),
  };
}

async function expectTelemetry(metrics: MetricsProbe, truth: ReturnType<typeof happened>): Promise<void> {
  const totals = await exportedTotals(metrics);
  expect({ ...totals, cost: undefined }).toEqual({
    compactions: truth.compactions,
    maskings: truth.maskings,
    input: truth.promptTokens - truth.cachedPromptTokens,
    cached: truth.cachedPromptTokens,
    output: truth.outputTokens,
    cost: undefined,
  });
  expect(totals.cost).toBeCloseTo(truth.costUsd, 9);
}

describe('counts under concurrent turns of one session', () => {
  it.each([
    ['InMemorySessionService', () => Promise.resolve(new InMemorySessionService())],
    ['DatabaseSessionService on SQLite', () => database('concurrent.sqlite')],
  ])('should count every call, compaction and masking of concurrent turns on %s', async (_, open) => {
    probe = metricsProbe().register();
    const store: BaseSessionService = await open();
    const one = replica(store);
    const session = await store.createSession({ appName: APP_NAME, userId: USER_ID });
    const turns = await concurrentRounds([one], session.id, 6, 3);

    const stored = await storedSession(store, session.id);
    const truth = happened([one], turns);
    expectCounts(one.guard.status(stored, 'worker'), truth);
    await expectTelemetry(probe, truth);
  });
});

describe('counts across replicas', () => {
  it('should add up the calls of two replicas serving one session at the same time', async () => {
    probe = metricsProbe().register();
    // Two processes' views of one database: separate session services, guards and runners.
    const lock = new WriteLock();
    const stores = [await database('replicas.sqlite', lock), await database('replicas.sqlite', lock)];
    const replicas = stores.map(replica);
    const session = await stores[0]!.createSession({ appName: APP_NAME, userId: USER_ID, sessionId: 'shared' });
    const turns = await concurrentRounds(replicas, session.id, 6, 2);

    const truth = happened(replicas, turns);
    // Either replica reads the same sum.
    for (const store of stores)
      expectCounts(replicas[0]!.guard.status(await storedSession(store, session.id), 'worker'), truth);
    await expectTelemetry(probe, truth);
  });
});

describe('where the counts come from', () => {
  it('should count a call the provider rejected from its error event, under concurrent turns', async () => {
    const model = new ScriptedLlm({
      window: WINDOW,
      countTokens: ratioTokenCounter(1.8),
      script: analystScript,
      // The second request is refused as too long, as Gemini refuses one.
      fail: ({ index }) => (index === 1 ? promptTooLongError(9_000, WINDOW) : undefined),
    });
    const guard = new ContextGuard({
      contextWindow: WINDOW,
      summarizer: new ScriptedSummarizer(),
      prepareTurnsAhead: 0,
    });
    const harness = createHarness({ model, plugins: [guard] });
    const session = await harness.startSession();
    await Promise.all([1, 2, 3].map((turn) => runTurn(harness.runner, session.id, `Turn ${turn}: check the logs.`)));

    const status = guard.status(await harness.storedSession(session.id), 'worker');
    expect(status).toMatchObject({ countsFrom: 'events', rejectedCalls: 1, modelCalls: model.requests.length });
  });

  it('should fall back to the usage record for a session listed without its events, and say so', async () => {
    // DatabaseSessionService lists a session with its state (session, app and user keys) and no events.
    const store = await database('listed.sqlite');
    const one = replica(store);
    const session = await store.createSession({ appName: APP_NAME, userId: USER_ID });
    // One turn at a time: the usage record is exact then.
    await concurrentRounds([one], session.id, 3, 1);
    const listed = (await store.listSessions({ appName: APP_NAME, userId: USER_ID })).sessions[0]!;
    expect(listed.events).toEqual([]);
    expect(one.guard.status(listed, 'worker')).toMatchObject({
      known: true,
      countsFrom: 'state',
      modelCalls: one.harness.model.requests.length,
    });

    // InMemorySessionService lists a session with neither state nor events: nothing to count.
    const memory = new InMemorySessionService();
    const other = replica(memory);
    const inMemory = await memory.createSession({ appName: APP_NAME, userId: USER_ID });
    await concurrentRounds([other], inMemory.id, 1, 1);
    const listedInMemory = (await memory.listSessions({ appName: APP_NAME, userId: USER_ID })).sessions[0]!;
    expect(listedInMemory.state).toEqual({});
    expect(other.guard.status(listedInMemory)).toEqual([]);
    expect(other.guard.status(listedInMemory, 'worker').known).toBe(false);
  });
});
