/**
 * The lifecycle of a summary through real ADK components: created once,
 * reused on later steps, picked up by a new Runner and plugin on the same
 * session, kept apart per agent, and produced even when the summarizer fails.
 */
import { InMemorySessionService, LlmAgent, Runner } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { SUMMARY_MARKER, decodeSummaryRecord, decodeUsageRecord, stateKeysFor } from '../../src/internal.js';
import { ScriptedLlm, ratioTokenCounter, ScriptedSummarizer } from '../../src/testing/index.js';
import {
  APP_NAME,
  createHarness,
  fetchLogsTool,
  runTurn,
  toolThenAnswerScript,
  startSession,
  storedSession,
  errorCodes,
} from '../support/agent-harness.js';

const WINDOW = 8_000;
const keys = stateKeysFor('worker');

function sentSummary(contents: { parts?: { text?: string }[] }[]): boolean {
  return contents[0]?.parts?.[0]?.text?.startsWith(SUMMARY_MARKER) ?? false;
}

describe('compaction lifecycle', () => {
  it('should call the summarizer once per compaction and reuse the summary on the steps after it', async () => {
    const summarizer = new ScriptedSummarizer();
    // About summaries made in the call: masking alone would make room in this session, and a summary
    // prepared ahead (background-compaction.test.ts) may still be running when the run ends.
    const guard = new ContextGuard({ contextWindow: WINDOW, summarizer, maskKeepRecent: 0, prepareTurnsAhead: 0 });
    const harness = createHarness({
      window: WINDOW,
      ratio: 1.8,
      script: toolThenAnswerScript(3_000),
      plugins: [guard],
    });
    const stored = await harness.sessionAfterTurns(12);
    const usage = decodeUsageRecord(stored.state[keys.usage]);
    expect(usage.compactions).toBeGreaterThan(0);
    expect(summarizer.calls.length).toBe(usage.compactions);
    // Every request after the first compaction starts with the summary, many without a new summarizer call.
    const firstSummarized = harness.model.requests.findIndex((request) => sentSummary(request.contents));
    expect(firstSummarized).toBeGreaterThan(0);
    const withSummary = harness.model.requests
      .slice(firstSummarized)
      .filter((request) => sentSummary(request.contents));
    expect(withSummary.length).toBe(harness.model.requests.length - firstSummarized);
    expect(withSummary.length).toBeGreaterThan(usage.compactions);
    expect(harness.model.rejectedRequests).toEqual([]);
  });

  it('should strip the covered contents on later turns, and keep doing so for a new Runner and plugin on the same session', async () => {
    const sessionService = new InMemorySessionService();
    const first = createHarness({
      window: WINDOW,
      ratio: 1.8,
      script: toolThenAnswerScript(3_000),
      plugins: [new ContextGuard({ contextWindow: WINDOW, summarizer: new ScriptedSummarizer() })],
      sessionService,
    });
    const session = await startSession(sessionService);
    let turn = 0;
    let summary: ReturnType<typeof decodeSummaryRecord>;
    while (!summary && turn < 20) {
      turn++;
      await runTurn(first.runner, session.id, `Turn ${turn}: check the logs.`);
      const stored = await storedSession(sessionService, session.id);
      summary = decodeSummaryRecord(stored.state[keys.summary]);
    }
    expect(summary).toBeDefined();

    // A new process: new plugin instance, new Runner, new model, same session store.
    const secondSummarizer = new ScriptedSummarizer();
    const second = createHarness({
      window: WINDOW,
      ratio: 1.8,
      script: toolThenAnswerScript(0),
      plugins: [new ContextGuard({ contextWindow: WINDOW, summarizer: secondSummarizer })],
      sessionService,
    });
    await runTurn(second.runner, session.id, 'One more question, no tools needed.');
    const request = second.model.requests[0];
    expect(request).toBeDefined();
    expect(sentSummary(request!.contents)).toBe(true);
    expect(request!.contents[0]?.parts?.[0]?.text).toContain(summary!.text);
    // The full history holds more contents than were sent: the covered ones were stripped.
    const stored = await storedSession(sessionService, session.id);
    const historyContents = stored.events.filter((event) => event.content?.role).length;
    expect(request!.contents.length).toBeLessThan(historyContents - summary!.covered + 2);
    expect(secondSummarizer.calls).toHaveLength(0);
    expect(second.model.rejectedRequests).toEqual([]);
  });

  it('should produce a compaction with a mechanical summary when the summarizer throws', async () => {
    const summarizer = new ScriptedSummarizer({ behavior: 'fail' });
    const harness = createHarness({
      window: WINDOW,
      ratio: 1.8,
      script: toolThenAnswerScript(3_000),
      plugins: [new ContextGuard({ contextWindow: WINDOW, summarizer, maskKeepRecent: 0 })],
    });
    const session = await harness.startSession();
    const errors = errorCodes(await harness.runTurns(session.id, 10));
    const stored = await harness.storedSession(session.id);
    const summary = decodeSummaryRecord(stored.state[keys.summary]);
    expect(errors).toEqual([]);
    expect(summarizer.calls.length).toBeGreaterThan(0);
    expect(summary?.fallback).toBe(true);
    expect(summary?.text).toContain('Mechanical summary');
    expect(harness.model.rejectedRequests).toEqual([]);
  });

  it('should keep separate state and thresholds for two agents in one session', async () => {
    const sessionService = new InMemorySessionService();
    const guard = new ContextGuard({
      summarizer: new ScriptedSummarizer(),
      // Summaries are what must stay apart: masking (each agent's own results and, since they are masked too, the
      // other's) would make room alone.
      maskKeepRecent: 0,
      agents: { alpha: { contextWindow: 8_000 }, beta: { contextWindow: 16_000 } },
    });
    const makeRunner = (name: string, window: number) => {
      const model = new ScriptedLlm({
        window,
        countTokens: ratioTokenCounter(1.8),
        script: toolThenAnswerScript(2_500),
      });
      const agent = new LlmAgent({ name, model, instruction: `You are ${name}.`, tools: [fetchLogsTool()] });
      return { model, runner: new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] }) };
    };
    const alpha = makeRunner('alpha', 8_000);
    const beta = makeRunner('beta', 16_000);
    const session = await startSession(sessionService);
    for (let turn = 1; turn <= 8; turn++) {
      await runTurn(alpha.runner, session.id, `Alpha turn ${turn}`);
      await runTurn(beta.runner, session.id, `Beta turn ${turn}`);
    }
    const stored = await storedSession(sessionService, session.id);
    const alphaUsage = decodeUsageRecord(stored.state[stateKeysFor('alpha').usage]);
    const betaUsage = decodeUsageRecord(stored.state[stateKeysFor('beta').usage]);
    expect(alphaUsage.modelCalls).toBe(alpha.model.requests.length);
    expect(betaUsage.modelCalls).toBe(beta.model.requests.length);
    expect(alphaUsage.compactions).toBeGreaterThan(0);
    // Beta sees both agents' history but has twice the window: it compacts less often than alpha.
    expect(betaUsage.compactions).toBeLessThan(alphaUsage.compactions);
    const alphaSummary = decodeSummaryRecord(stored.state[stateKeysFor('alpha').summary]);
    const betaSummary = decodeSummaryRecord(stored.state[stateKeysFor('beta').summary]);
    expect(alphaSummary).toBeDefined();
    expect(betaUsage.compactions).toBeGreaterThan(0);
    // Each agent's watermark indexes its own view of the history.
    expect(betaSummary!.anchor).not.toBe(alphaSummary!.anchor);
    expect(alpha.model.rejectedRequests).toEqual([]);
    expect(beta.model.rejectedRequests).toEqual([]);
  });
});
