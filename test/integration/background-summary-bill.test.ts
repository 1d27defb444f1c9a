/**
 * A summary prepared in the background is billed by the provider whether a compaction uses it or not:
 * `status()` and OpenTelemetry count every such summarizer call once, when it settles, and the call
 * that applies one does not count it again. Real Runner, real session services (in memory, SQLite);
 * the scripted model and a summarizer of our own that reports its usage are the only stand-ins.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSessionService, InMemorySessionService, type BaseSessionService, type Session } from '@google/adk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContextGuard, type CompactionRecord, type Summarizer } from '../../src/index.js';
import { createHarness, toolThenAnswerScript, type Harness } from '../support/agent-harness.js';
import { metricsProbe } from '../support/metrics-probe.js';

const WINDOW = 16_000;
const PRICE = { input: 1, cachedInput: 0.1, output: 10 };
const PROMPT_TOKENS = 1_200;
const CACHED_TOKENS = 200;
const OUTPUT_TOKENS = 80;
/** One summarizer call's cost at PRICE, as the provider would bill it. */
const CALL_USD =
  ((PROMPT_TOKENS - CACHED_TOKENS) * PRICE.input + CACHED_TOKENS * PRICE.cachedInput + OUTPUT_TOKENS * PRICE.output) /
  1e6;

const folder = mkdtempSync(join(tmpdir(), 'context-guard-summary-bill-'));
const probe = metricsProbe();
beforeAll(() => probe.register());
afterAll(async () => {
  await probe.shutdown();
  rmSync(folder, { recursive: true, force: true });
});

/** A summarizer named `name` that reports what a provider would bill for each call; `calls` counts them. */
function billingSummarizer(name: string): Summarizer & { calls: number } {
  const summarizer = {
    name,
    calls: 0,
    async summarize() {
      summarizer.calls++;
      return {
        text: `## Current state\nSummary ${summarizer.calls}.`,
        finishReason: 'STOP',
        promptTokens: PROMPT_TOKENS,
        cachedPromptTokens: CACHED_TOKENS,
        outputTokens: OUTPUT_TOKENS,
      };
    },
  };
  return summarizer;
}

function guarded(summarizer: Summarizer, sessionService: BaseSessionService) {
  const compactions: CompactionRecord[] = [];
  const guard = new ContextGuard({
    contextWindow: WINDOW,
    summarizer,
    prices: { [summarizer.name]: PRICE },
    onCompaction: (record) => void compactions.push(record),
    // About summaries: masking alone would make room in these sessions.
    maskKeepRecent: 0,
  });
  const harness = createHarness({
    window: WINDOW,
    ratio: 1.8,
    script: toolThenAnswerScript(1_500),
    plugins: [guard],
    sessionService,
  });
  return { guard, harness, compactions };
}

/** Turns of `session` until `done`; then waits until no summary is being prepared and its bill is stored. */
async function turnsUntil(h: Harness, guard: ContextGuard, session: Session, done: () => boolean): Promise<Session> {
  for (let turn = 1; turn <= 40 && !done(); turn++) await h.runTurns(session.id, turn, { from: turn });
  expect(done()).toBe(true);
  for (let tries = 0; tries < 200; tries++) {
    const stored = await h.storedSession(session.id);
    // The claim is cleared from state once the summary (and its bill) is stored.
    if (!guard.status(stored, 'worker').preparing) return stored;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the prepared summary was never stored');
}

/** What OpenTelemetry counted of the summarizer `name`: its calls and their cost. */
async function exportedFor(name: string): Promise<{ calls: number; usd: number }> {
  const exported = await probe.exported();
  // Cumulative: the last export holds everything recorded so far.
  const sum = (metric: string): number =>
    (exported.filter((each) => each.descriptor.name === metric).at(-1)?.dataPoints ?? [])
      .filter((point) => point.attributes['gen_ai.request.model'] === name)
      .reduce((total, point) => total + Number(point.value), 0);
  return { calls: sum('gen_ai.context_guard.summarizer.calls'), usd: sum('gen_ai.context_guard.summarizer.cost') };
}

const stores: { name: string; make: () => Promise<BaseSessionService> }[] = [
  { name: 'in memory', make: async () => new InMemorySessionService() },
  {
    name: 'SQLite',
    make: async () => {
      const store = new DatabaseSessionService(`sqlite://${join(folder, `bill-${Date.now()}.sqlite`)}`);
      await store.init();
      return store;
    },
  },
];

/** A summarizer that reports its usage and answers only once `release()` is called. */
function heldSummarizer(name: string): { summarizer: Summarizer & { calls: number }; release: () => void } {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const inner = billingSummarizer(name);
  const summarizer = {
    name,
    get calls() {
      return inner.calls;
    },
    async summarize(request: Parameters<Summarizer['summarize']>[0]) {
      const answer = inner.summarize(request);
      await gate;
      return answer;
    },
  };
  return { summarizer, release: () => release() };
}

describe.each(stores)("a background summary's bill, sessions $name", ({ name: storeName, make }) => {
  it('should count a summary that can no longer be applied when it is made (its bill on an event of its own)', async () => {
    const { summarizer, release } = heldSummarizer(`dropped-${storeName}`);
    const { guard, harness } = guarded(summarizer, await make());
    const session = await harness.startSession();
    for (let turn = 1; turn <= 40 && summarizer.calls === 0; turn++)
      await harness.runTurns(session.id, turn, { from: turn });
    expect(summarizer.calls).toBe(1);
    // The process lets go of the session while its summary is being made: no call of it will apply the summary.
    guard.forgetSession(await harness.storedSession(session.id));
    release();
    let status = guard.status(await harness.storedSession(session.id), 'worker');
    for (let tries = 0; tries < 200 && status.summarizerCalls === 0; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      status = guard.status(await harness.storedSession(session.id), 'worker');
    }
    // Every call it served (one summary may take two: what it covers does not fit its window at once).
    const served = summarizer.calls;
    expect(status).toMatchObject({
      compactions: 0,
      summarizerCalls: served,
      summarizerPromptTokens: served * PROMPT_TOKENS,
    });
    expect(await exportedFor(summarizer.name)).toEqual({ calls: served, usd: expect.closeTo(served * CALL_USD, 12) });
  });

  it('should count a summary that no compaction used, once it is made', async () => {
    const summarizer = billingSummarizer(`unused-${storeName}`);
    const { guard, harness, compactions } = guarded(summarizer, await make());
    const session = await harness.startSession();
    // The session stops after the preparation started, before any compaction applies it.
    const stored = await turnsUntil(harness, guard, session, () => summarizer.calls > 0);
    expect(compactions).toEqual([]);
    const status = guard.status(stored, 'worker');
    expect(status.compactions).toBe(0);
    const served = summarizer.calls;
    expect(status).toMatchObject({
      summarizerCalls: served,
      summarizerPromptTokens: served * PROMPT_TOKENS,
      summarizerCachedPromptTokens: served * CACHED_TOKENS,
      summarizerOutputTokens: served * OUTPUT_TOKENS,
      unpricedSummarizerCalls: 0,
    });
    expect(status.summarizerCostUsd).toBeCloseTo(served * CALL_USD, 12);
    // The bill's event is outside the agent's invocations: they are the turns the agent answered.
    const turns = new Set(
      stored.events.filter((event) => event.author === 'worker').map((event) => event.invocationId),
    );
    expect(status.invocations).toBe(turns.size);
    expect(await exportedFor(summarizer.name)).toEqual({ calls: served, usd: expect.closeTo(served * CALL_USD, 12) });
  });

  it('should count a summary that a compaction applied once, not again when applied', async () => {
    const summarizer = billingSummarizer(`applied-${storeName}`);
    const { guard, harness, compactions } = guarded(summarizer, await make());
    const session = await harness.startSession();
    const stored = await turnsUntil(harness, guard, session, () => compactions.length > 0);
    expect(compactions[0]).toMatchObject({ prepared: true, fallback: false });
    const status = guard.status(stored, 'worker');
    expect(status.countsFrom).toBe('events');
    // Every call the summarizer served, counted once: the one applied and any prepared after it.
    expect(status.summarizerCalls).toBe(summarizer.calls);
    expect(status.summarizerPromptTokens).toBe(summarizer.calls * PROMPT_TOKENS);
    expect(status.summarizerCostUsd).toBeCloseTo(summarizer.calls * CALL_USD, 12);
    expect((await exportedFor(summarizer.name)).calls).toBe(summarizer.calls);
  });
});
