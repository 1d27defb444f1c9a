/**
 * Scale-out: concurrent requests on one session share one compaction,
 * different sessions never wait for each other, and two replicas (two Runners
 * and plugin instances on one database) alternating turns behave exactly like
 * a single runner.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSessionService, InMemorySessionService } from '@google/adk';
import { afterAll, describe, expect, it } from 'vitest';
import { ContextGuard, type Summarizer } from '../../src/index.js';
import { decodeUsageRecord, stateKeysFor } from '../../src/internal.js';
import { ScriptedLlm, ratioTokenCounter } from '../../src/testing/index.js';
import {
  APP_NAME,
  USER_ID,
  createHarness,
  runTurn,
  toolThenAnswerScript,
  startSession,
  storedSession,
} from '../support/agent-harness.js';

const folder = mkdtempSync(join(tmpdir(), 'context-guard-replicas-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Deterministic: the same prompt always gives the same summary, whichever replica asks. */
function deterministicSummarizer(delayMs = 0): Summarizer & { calls: number } {
  const summarizer = {
    name: 'deterministic',
    calls: 0,
    async summarize({ prompt }: { prompt: string }) {
      summarizer.calls++;
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      const turns = prompt.match(/Turn \d+/g) ?? [];
      return {
        text: `## Current state\nCovered ${turns.length} turn mentions; prompt of ${prompt.length} characters.`,
        finishReason: 'STOP',
      };
    },
  };
  return summarizer;
}

/** One model and session service, with a harness on a roomy window to grow a session's history without compacting it. */
function roomyWorld() {
  const sessionService = new InMemorySessionService();
  const model = new ScriptedLlm({
    window: 100_000,
    countTokens: ratioTokenCounter(1.8),
    script: toolThenAnswerScript(3_000),
  });
  const warmup = createHarness({
    model,
    sessionService,
    plugins: [new ContextGuard({ contextWindow: 100_000 })],
  });
  return { sessionService, model, warmup };
}

describe('concurrency', () => {
  it('should summarize a session once when two requests on it need a compaction at the same time', async () => {
    const { sessionService, model, warmup } = roomyWorld();
    const session = await startSession(sessionService);
    await warmup.runTurns(session.id, 6);

    const summarizer = deterministicSummarizer(50);
    const small = createHarness({
      model,
      sessionService,
      // One call a summary: its window takes all it covers (else two, summary/summarize-covered.ts).
      plugins: [
        new ContextGuard({ contextWindow: 8_000, summarizer, maskKeepRecent: 0, summarizerContextWindow: 1_000_000 }),
      ],
    });
    await Promise.all([
      runTurn(small.runner, session.id, 'Turn 7: first concurrent question.'),
      runTurn(small.runner, session.id, 'Turn 8: second concurrent question.'),
    ]);
    expect(summarizer.calls).toBe(1);
  });

  it("should not make one session wait for another session's compaction", async () => {
    const { sessionService, model, warmup } = roomyWorld();
    const slow = await startSession(sessionService);
    await warmup.runTurns(slow.id, 6);
    const fast = await startSession(sessionService);

    let releaseSummarizer: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (releaseSummarizer = resolve));
    let summarizing = false;
    const blockingSummarizer: Summarizer = {
      name: 'gated',
      summarize: async () => {
        summarizing = true;
        await gate;
        return { text: 'gated summary' };
      },
    };
    const guarded = createHarness({
      model,
      sessionService,
      plugins: [new ContextGuard({ contextWindow: 8_000, summarizer: blockingSummarizer, maskKeepRecent: 0 })],
    });
    const slowTurn = runTurn(guarded.runner, slow.id, 'Turn 7: needs a compaction.');
    // The other session completes while the first one's summarizer is still blocked.
    const fastEvents = await runTurn(guarded.runner, fast.id, 'Hello from another session.');
    expect(fastEvents.some((event) => event.content?.parts?.some((part) => part.text))).toBe(true);
    // It completed while the first session was blocked in its summarizer, not before that started.
    expect(summarizing).toBe(true);
    releaseSummarizer();
    await slowTurn;
  });
});

describe('replicas on one database', () => {
  async function run(file: string, replicas: number) {
    // One after the other: ADK's init creates the schema, and two inits racing on an empty database collide.
    const stores: DatabaseSessionService[] = [];
    for (let i = 0; i < replicas; i++) {
      const store = new DatabaseSessionService(`sqlite://${file}`);
      await store.init();
      stores.push(store);
    }
    const harnesses = stores.map((store) =>
      createHarness({
        window: 8_000,
        ratio: 1.8,
        script: toolThenAnswerScript(3_000),
        sessionService: store,
        // Background compaction off: its summary is written to the session when made, and on one SQLite file two
        // connections cannot write at once (docs/reliability.md); replica-background-summary.test.ts covers it.
        plugins: [
          new ContextGuard({ contextWindow: 8_000, summarizer: deterministicSummarizer(), prepareTurnsAhead: 0 }),
        ],
      }),
    );
    const session = await stores[0]!.createSession({ appName: APP_NAME, userId: USER_ID, sessionId: 'shared-session' });
    for (let turn = 1; turn <= 12; turn++)
      await runTurn(harnesses[turn % replicas]!.runner, session.id, `Turn ${turn}: check the logs.`);
    const requests = harnesses.flatMap((harness) => harness.model.requests).sort((a, b) => a.timestamp - b.timestamp);
    const stored = await storedSession(stores[0]!, session.id);
    return { requests, usage: decodeUsageRecord(stored.state[stateKeysFor('worker').usage]) };
  }

  it('should send the same requests whether one runner or two alternating replicas serve the session', async () => {
    const single = await run(join(folder, 'single.sqlite'), 1);
    const pair = await run(join(folder, 'pair.sqlite'), 2);
    // The guard acted (masking, then summaries where masking was not enough), the same way on both.
    expect(single.usage.compactions + single.usage.maskings).toBeGreaterThan(0);
    expect(pair.usage.maskings).toBe(single.usage.maskings);
    expect(pair.requests.map((request) => request.promptTokens)).toEqual(
      single.requests.map((request) => request.promptTokens),
    );
    expect(pair.usage.compactions).toBe(single.usage.compactions);
    expect(pair.usage.modelCalls).toBe(single.usage.modelCalls);
    expect(pair.requests.some((request) => request.rejected)).toBe(false);
  });
});
