/**
 * Background compaction (issue #18) through a real Runner: the summary the
 * threshold needs is prepared turns ahead, applied at the threshold without a
 * summarizer call in that turn, dropped when the summary it extends changed
 * under it (another replica's compaction), never handed to another session
 * (same session id, other user), and a summarizer failure in the background
 * ends in today's fallback, with no unhandled rejection.
 */
import { BasePlugin, InMemorySessionService } from '@google/adk';
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ContextGuard,
  formatContextMeter,
  type CompactionRecord,
  type ContextGuardOptions,
  type Summarizer,
} from '../../src/index.js';
import { decodeSummaryRecord, stateKeysFor } from '../../src/internal.js';
import {
  APP_NAME,
  USER_ID,
  createHarness,
  runTurn,
  toolThenAnswerScript,
  type Harness,
  startSession,
  storedSession,
} from '../support/agent-harness.js';
import { CapturingLogger } from '../../src/testing/index.js';
import { metricsProbe } from '../support/metrics-probe.js';
import { collectUnhandledRejections } from '../support/unhandled-rejections.js';
import { ScriptedSummarizer } from '../../src/testing/index.js';

const WINDOW = 16_000;

// Registered before any test: the guard's metric instruments are created once, on first use.
const spans = new InMemorySpanExporter();
const probe = metricsProbe();
beforeAll(() => {
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
  probe.register();
});
afterAll(() => probe.shutdown());
const TOOL_CHARS = 1_500;

/** A summarizer that says whose conversation it read (the name in the turns' text) and in which turn it was called. */
function echoingSummarizer(turn: () => number): Summarizer & { calls: { turn: number; whose: string }[] } {
  const calls: { turn: number; whose: string }[] = [];
  return {
    name: 'echoing',
    calls,
    async summarize({ prompt }) {
      const whose = /Turn \d+ for (\w+)/.exec(prompt)?.[1] ?? 'nobody';
      calls.push({ turn: turn(), whose });
      return { text: `## Current state\nWork of ${whose}, summary ${calls.length}.`, finishReason: 'STOP' };
    },
  };
}

/** A summarizer whose answers wait until `release()`: a summary still being prepared. */
function gatedSummarizer(text: string): { summarizer: Summarizer; release: () => void; calls: () => number } {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let calls = 0;
  const summarizer: Summarizer = {
    name: 'gated',
    summarize: async () => {
      calls++;
      await gate;
      return { text };
    },
  };
  return { summarizer, release: () => release(), calls: () => calls };
}

function guarded(
  summarizer: Summarizer,
  sessionService = new InMemorySessionService(),
  plugins: BasePlugin[] = [],
  options: ContextGuardOptions = {},
) {
  const compactions: CompactionRecord[] = [];
  const logger = new CapturingLogger();
  const guard = new ContextGuard({
    contextWindow: WINDOW,
    summarizer,
    logger,
    onCompaction: (record) => void compactions.push(record),
    // About summaries: masking alone would make room in these sessions.
    maskKeepRecent: 0,
    // One call a summary: its window takes all a summary covers (else two, summary/summarize-covered.ts).
    summarizerContextWindow: 1_000_000,
    ...options,
  });
  const harness = createHarness({
    window: WINDOW,
    ratio: 1.8,
    script: toolThenAnswerScript(TOOL_CHARS),
    plugins: [...plugins, guard],
    sessionService,
  });
  return { guard, harness, compactions, logger };
}

/** Starts a session and runs turns until the first compaction. */
async function untilFirstCompaction(
  harness: Harness,
  compactions: readonly CompactionRecord[],
  text: (turn: number) => string,
): Promise<void> {
  const session = await harness.startSession();
  await turnsUntil(harness, session.id, () => compactions.length > 0, text);
}

async function turnsUntil(
  harness: Harness,
  sessionId: string,
  done: () => boolean,
  text: (turn: number) => string,
  from = 1,
  userId = USER_ID,
): Promise<number> {
  for (let turn = from; turn < from + 60; turn++) {
    for await (const event of harness.runner.runAsync({
      userId,
      sessionId,
      newMessage: { role: 'user', parts: [{ text: text(turn) }] },
    }))
      expect(event.errorCode, `turn ${turn}`).toBeUndefined();
    if (done()) return turn;
  }
  throw new Error('the condition was never reached');
}

describe('background compaction through a real Runner', () => {
  it('should apply at the threshold a summary prepared in an earlier turn, without summarizing in that turn', async () => {
    let turn = 0;
    const summarizer = echoingSummarizer(() => turn);
    const { guard, harness, compactions } = guarded(summarizer);
    await untilFirstCompaction(
      harness,
      compactions,
      (n) => `Turn ${(turn = n)} for alice: fetch the logs and tell me what you see.`,
    );
    const [record] = compactions;
    expect(record?.prepared).toBe(true);
    const [session] = (await harness.sessionService.listSessions({ appName: APP_NAME, userId: USER_ID })).sessions;
    const stored = await storedSession(harness.sessionService, session?.id ?? '');
    expect(guard.status(stored, 'worker').droppedPreparations).toBe(0);
    expect(record?.waitedMs).toBe(0);
    expect(record?.fallback).toBe(false);
    // One summarizer call, made in a turn before the one that compacted.
    expect(summarizer.calls).toHaveLength(1);
    expect(summarizer.calls[0]?.turn).toBeLessThan(turn);
    expect(harness.model.rejectedRequests).toEqual([]);
    // The summary went out in this turn's compacting call, with the current request verbatim.
    const first = harness.model.requests.find((request) => JSON.stringify(request.contents).includes('Work of alice'));
    const sent = JSON.stringify(first?.contents ?? []);
    expect(sent.includes(`Turn ${turn} for alice`), 'current request sent with the summary').toBe(true);
  });

  it("should drop a prepared summary when another replica's compaction changed the summary it extends", async () => {
    let turn = 0;
    const sessionService = new InMemorySessionService();
    const echoing = echoingSummarizer(() => turn);
    // Replica A's summary is still being made when replica B compacts.
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const summarizerA: Summarizer = {
      name: 'echoing',
      summarize: async (request) => {
        const summary = await echoing.summarize(request);
        await gate;
        return summary;
      },
    };
    const a = guarded(summarizerA, sessionService);
    const session = await startSession(sessionService);
    const text = (n: number) => `Turn ${(turn = n)} for alice: fetch the logs and tell me what you see.`;
    const prepared = await turnsUntil(a.harness, session.id, () => echoing.calls.length > 0, text);
    expect(a.compactions).toEqual([]);

    // Replica B (its own plugin, same database) compacts the session on request, without waiting for A's summary.
    const summarizerB: Summarizer = { name: 'replica-b', summarize: async () => ({ text: 'Summary by replica B.' }) };
    const b = guarded(summarizerB, sessionService, [], { preparedSummaryWaitMs: 0 });
    const stored = await storedSession(sessionService, session.id);
    await b.guard.requestCompaction({ sessionService, session: stored, agentName: 'worker' });
    await runTurn(b.harness.runner, session.id, text(prepared + 1));
    expect(b.compactions).toHaveLength(1);
    expect(b.compactions[0]?.prepared).toBe(false);
    open();

    // Back on replica A: its prepared summary extends no summary, the stored one is B's.
    await turnsUntil(a.harness, session.id, () => a.compactions.length > 0, text, prepared + 2);
    // Thrown away once, where its claim was settled without it (B stored its own summary first): one line, one count,
    // read from the events and from state alone, on either replica (reviews 30 and 31).
    const drops = [...a.logger.matching(/prepared summary dropped/), ...b.logger.matching(/prepared summary dropped/)];
    expect(drops.map((line) => line.message)).toEqual([
      expect.stringContaining('prepared summary dropped: another summary was stored before it was applied'),
    ]);
    const afterDrop = await storedSession(sessionService, session.id);
    expect(a.guard.status(afterDrop, 'worker').droppedPreparations).toBe(1);
    expect(b.guard.status({ state: afterDrop.state }, 'worker').droppedPreparations).toBe(1);
    const everySent = JSON.stringify(a.harness.model.requests.map((request) => request.contents));
    expect(everySent).not.toContain('Work of alice, summary 1.');
    const final = await storedSession(sessionService, session.id);
    const summary = decodeSummaryRecord(final.state[stateKeysFor('worker').summary]);
    expect(summary?.compactions).toBe(2);
    expect(summary?.text).not.toContain('summary 1.');
  });

  it('should never hand a summary prepared for one user to another user with the same session id', async () => {
    let turn = 0;
    const sessionService = new InMemorySessionService();
    const summarizer = echoingSummarizer(() => turn);
    const { harness, compactions } = guarded(summarizer, sessionService);
    const sessionId = 'shared-session-id';
    await sessionService.createSession({ appName: APP_NAME, userId: 'alice', sessionId });
    await sessionService.createSession({ appName: APP_NAME, userId: 'bob', sessionId });
    const alice = (n: number) => `Turn ${(turn = n)} for alice: fetch the logs and tell me what you see.`;
    const bob = (n: number) => `Turn ${(turn = n)} for bob: fetch the logs and tell me what you see.`;
    await turnsUntil(harness, sessionId, () => summarizer.calls.length > 0, alice, 1, 'alice');
    expect(compactions).toEqual([]);
    const bobFrom = harness.model.requests.length;
    await turnsUntil(harness, sessionId, () => compactions.length > 0, bob, 1, 'bob');

    const bobRequests = JSON.stringify(harness.model.requests.slice(bobFrom).map((request) => request.contents));
    expect(bobRequests).not.toContain('alice');
    expect(compactions[0]?.prepared).toBe(true);
    expect(summarizer.calls.map((call) => call.whose)).toEqual(['alice', 'bob']);
    const stored = await sessionService.getSession({ appName: APP_NAME, userId: 'bob', sessionId });
    expect(decodeSummaryRecord(stored?.state[stateKeysFor('worker').summary])?.text).toContain('Work of bob');
  });

  it('should wait for a summary still being prepared at the threshold instead of calling the summarizer again', async () => {
    const { summarizer: gated, release, calls } = gatedSummarizer('Prepared while the turns went on.');
    // Opens the gate only when the compacting call starts its compaction (masking off: no other compaction
    // fires the hook), so the prepared summary is still running when that call takes it.
    let hooks = 0;
    class ReleaseOnCompaction extends BasePlugin {
      constructor() {
        super('release_on_compaction');
      }
      override async beforeContextCompaction(): Promise<void> {
        hooks++;
        release();
      }
    }
    const { harness, compactions } = guarded(gated, undefined, [new ReleaseOnCompaction()], { maskKeepRecent: 0 });
    await untilFirstCompaction(harness, compactions, (n) => `Turn ${n} for alice: fetch the logs.`);
    expect(hooks).toBe(1);
    expect(calls()).toBe(1);
    expect(compactions[0]).toMatchObject({ prepared: true, fallback: false });
    expect(compactions[0]?.waitedMs).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(harness.model.requests.map((request) => request.contents))).toContain(
      'Prepared while the turns went on.',
    );
  });

  it('should say in status() and the meter while a summary is being prepared', async () => {
    const { summarizer: gated, release, calls } = gatedSummarizer('Gated summary.');
    const { guard, harness } = guarded(gated);
    const session = await harness.startSession();
    const statusNow = async () => {
      const stored = await harness.storedSession(session.id);
      return { identified: guard.status(stored, 'worker'), stateOnly: guard.status({ state: stored.state }, 'worker') };
    };
    expect((await statusNow()).identified.preparing).toBe(false);
    await turnsUntil(
      harness,
      session.id,
      () => calls() > 0,
      (n) => `Turn ${n} for alice: fetch the logs.`,
    );
    const during = await statusNow();
    expect(during.identified.preparing).toBe(true);
    expect(formatContextMeter(during.identified)).toMatch(/, preparing a summary$/);
    // The claim is in the session's state: any replica's status, or state alone, tells.
    expect(during.stateOnly.preparing).toBe(true);
    release();
    // Until the prepared summary is written to the session (an event appended in the background).
    for (let tries = 0; tries < 200 && (await statusNow()).stateOnly.preparing; tries++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const after = await statusNow();
    expect(after.identified.preparing).toBe(false);
    expect(after.stateOnly.preparing).toBe(false);
  });

  describe('a summarizer failure in the background', () => {
    const rejections = collectUnhandledRejections();

    it('should end in the fallback summary, once, with no unhandled rejection', async () => {
      const summarizer = new ScriptedSummarizer({ behavior: 'fail' });
      const { harness, compactions } = guarded(summarizer);
      await untilFirstCompaction(
        harness,
        compactions,
        (n) => `Turn ${n} for alice: fetch the logs and tell me what you see.`,
      );
      // Let any stray promise settle before looking for rejections.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(rejections).toEqual([]);
      expect(compactions[0]).toMatchObject({ prepared: true, fallback: true, fallbackReason: 'failed' });
      expect(summarizer.calls).toHaveLength(1);
      expect(harness.model.rejectedRequests).toEqual([]);
    });
  });

  it("should record in OpenTelemetry the summarizer's time in the background and whether the turn waited", async () => {
    spans.reset();
    const { harness, compactions } = guarded(new ScriptedSummarizer());
    await untilFirstCompaction(harness, compactions, (n) => `Turn ${n}: fetch the logs.`);

    const span = spans.getFinishedSpans().find((each) => each.name === 'compact_context worker');
    expect(span?.attributes['context_guard.prepared']).toBe(true);
    expect(span?.attributes['context_guard.waited_ms']).toBe(compactions[0]?.waitedMs);
    const exported = await probe.exported();
    const points = (name: string) => exported.find((metric) => metric.descriptor.name === name)?.dataPoints ?? [];
    // Metrics add up over the file's tests: each of them prepared its summaries in the background.
    const background = points('gen_ai.context_guard.summarizer.duration');
    expect(background.length).toBeGreaterThan(0);
    expect(background.every((point) => point.attributes['context_guard.background'] === true)).toBe(true);
    const waits = points('gen_ai.context_guard.compaction.wait');
    expect(waits.some((point) => point.attributes['context_guard.prepared'] === true)).toBe(true);
    const counted = points('gen_ai.context_guard.compactions');
    expect(counted.some((point) => point.attributes['context_guard.waited'] === false)).toBe(true);
  });
});
