/**
 * The default summarizer (the agent's own model) is asked as a continuation of the agent's request:
 * same system instruction, tools and leading contents as the request the agent sent before, the
 * instruction last, tool calls off; the provider's cache serves the shared prefix. Real Runner,
 * real session service; the scripted model is the only stand-in.
 */
import { describe, expect, it } from 'vitest';
import type { LlmRequest } from '@google/adk';
import { ContextGuard, type Summarizer } from '../../src/index.js';
import { decodeSummaryRecord, stateKeysFor } from '../../src/internal.js';
import { contentsText, ScriptedSummarizer, type RecordedRequest } from '../../src/testing/index.js';
import { createHarness, logsModel, toolThenAnswerScript } from '../support/agent-harness.js';
import { metricsProbe } from '../support/metrics-probe.js';

const SUMMARY_TEXT = 'SUMMARY-FROM-CACHE: logs fetched, latency normal.';
const isSummaryCall = (request: LlmRequest): boolean =>
  String(request.config?.toolConfig?.functionCallingConfig?.mode) === 'NONE';
/** A recorded request (it keeps no config) that ends with the summarizing instruction. */
const isSummaryRecord = (request: RecordedRequest): boolean =>
  contentsText(request.contents.slice(-1)).includes('compact the conversation above');

describe('a summary asked of the agent own model', () => {
  it('shares the agent request prefix, is served from the cache and is applied as before', async () => {
    const seen: LlmRequest[] = [];
    const agentScript = toolThenAnswerScript(3_000);
    const model = logsModel({
      window: 8_000,
      script: (call) => {
        seen.push(
          structuredClone({
            contents: call.request.contents,
            config: { ...call.request.config, abortSignal: undefined },
          }) as LlmRequest,
        );
        if (isSummaryCall(call.request)) return { content: { role: 'model', parts: [{ text: SUMMARY_TEXT }] } };
        return agentScript(call);
      },
    });
    const guard = new ContextGuard({ contextWindow: 8_000, maskKeepRecent: 0, prepareTurnsAhead: 0 });
    const h = createHarness({ model, plugins: [guard] });
    const session = await h.startSession();
    let turn = 0;
    while (!seen.some(isSummaryCall) && turn < 12) {
      turn += 1;
      await h.runTurns(session.id, turn, { from: turn });
    }
    const at = seen.findIndex(isSummaryCall);
    expect(at).toBeGreaterThan(0);
    const summaryCall = seen[at] as LlmRequest;
    const previous = seen[at - 1] as LlmRequest;
    // Same system instruction and tool declarations; leading contents byte-identical to the previous request's.
    expect(JSON.stringify(summaryCall.config?.systemInstruction)).toBe(
      JSON.stringify(previous.config?.systemInstruction),
    );
    expect(JSON.stringify(summaryCall.config?.tools)).toBe(JSON.stringify(previous.config?.tools));
    const leading = summaryCall.contents.slice(0, -1);
    expect(leading.length).toBeGreaterThan(1);
    expect(JSON.stringify(leading)).toBe(JSON.stringify(previous.contents.slice(0, leading.length)));
    // The instruction is the last user turn.
    const last = summaryCall.contents[summaryCall.contents.length - 1];
    expect(last?.role).toBe('user');
    expect(contentsText([last!])).toContain('compact the conversation above');
    // The scripted provider's implicit cache served the shared prefix.
    const recorded = model.requests[at];
    expect(recorded?.cachedPromptTokens).toBeGreaterThan(0);
    // The summary text is applied as before: stored, and sent to the agent on its next call.
    const stored = decodeSummaryRecord((await h.storedSession(session.id)).state[stateKeysFor('worker').summary]);
    expect(stored?.text).toContain(SUMMARY_TEXT);
    expect(contentsText(seen[at + 1]?.contents ?? [])).toContain(SUMMARY_TEXT);
  });
});

const PRICE = { input: 1, cachedInput: 0.1, output: 10 };

/** Turns until the guard's first compaction, on `model` under `guard`; the stored session after them. */
async function turnsUntilCompaction(h: ReturnType<typeof createHarness>, guard: ContextGuard) {
  const session = await h.startSession();
  for (let turn = 1; turn <= 12; turn += 1) {
    await h.runTurns(session.id, turn, { from: turn });
    const stored = await h.storedSession(session.id);
    if (guard.status(stored, 'worker').compactions > 0) return stored;
  }
  throw new Error('no compaction in 12 turns');
}

describe("the summarizer's bill", () => {
  it('counts the summary call apart, with the share the cache served, in status() and OpenTelemetry', async () => {
    const probe = metricsProbe().register();
    const agentScript = toolThenAnswerScript(3_000);
    const model = logsModel({
      window: 8_000,
      script: (call) =>
        isSummaryCall(call.request)
          ? { content: { role: 'model', parts: [{ text: SUMMARY_TEXT }] } }
          : agentScript(call),
    });
    const guard = new ContextGuard({
      contextWindow: 8_000,
      maskKeepRecent: 0,
      prepareTurnsAhead: 0,
      prices: { 'scripted-model': PRICE },
    });
    const h = createHarness({ model, plugins: [guard] });
    const stored = await turnsUntilCompaction(h, guard);

    // What the provider billed, told apart by the request's shape (tool calls off: the summary call).
    const accepted = model.requests.filter((request) => !request.rejected);
    const summaries = accepted.filter((request) => isSummaryRecord(request));
    const agentCalls = accepted.filter((request) => !summaries.includes(request));
    expect(summaries).toHaveLength(1);
    const summary = summaries[0]!;
    expect(summary.cachedPromptTokens).toBeGreaterThan(0);
    const cost = (prompt: number, cached: number): number =>
      ((prompt - cached) * PRICE.input + cached * PRICE.cachedInput + 50 * PRICE.output) / 1e6;

    const status = guard.status(stored, 'worker');
    const fromState = guard.status({ ...stored, events: [] }, 'worker');
    for (const each of [status, fromState]) {
      expect(each.summarizerCalls).toBe(1);
      expect(each.summarizerPromptTokens).toBe(summary.promptTokens);
      expect(each.summarizerCachedPromptTokens).toBe(summary.cachedPromptTokens);
      expect(each.summarizerOutputTokens).toBe(50);
      expect(each.summarizerCostUsd).toBeCloseTo(cost(summary.promptTokens, summary.cachedPromptTokens), 12);
      expect(each.unpricedSummarizerCalls).toBe(0);
      // The agent's own figures leave the summary call out; costUsd is the total of both.
      expect(each.promptTokens).toBe(agentCalls.reduce((sum, request) => sum + request.promptTokens, 0));
      const agentUsd = agentCalls.reduce(
        (sum, request) => sum + cost(request.promptTokens, request.cachedPromptTokens),
        0,
      );
      expect(each.costUsd).toBeCloseTo(agentUsd + (each.summarizerCostUsd ?? 0), 12);
    }
    expect(status.countsFrom).toBe('events');
    expect(fromState.countsFrom).toBe('state');

    const exported = await probe.exported();
    const points = (name: string) => exported.find((metric) => metric.descriptor.name === name)?.dataPoints ?? [];
    const byType = (type: string): number =>
      points('gen_ai.context_guard.summarizer.tokens')
        .filter((point) => point.attributes['gen_ai.token.type'] === type)
        .reduce((sum, point) => sum + Number(point.value), 0);
    expect(byType('cached_input')).toBe(summary.cachedPromptTokens);
    expect(byType('input')).toBe(summary.promptTokens - summary.cachedPromptTokens);
    expect(points('gen_ai.context_guard.summarizer.calls').reduce((sum, point) => sum + Number(point.value), 0)).toBe(
      1,
    );
    const summarizerUsd = points('gen_ai.context_guard.summarizer.cost').reduce((sum, p) => sum + Number(p.value), 0);
    expect(summarizerUsd).toBeCloseTo(status.summarizerCostUsd ?? 0, 12);
    await probe.shutdown();
  });

  it("counts a summarizer of one's own that reports no usage, its cost unknown", async () => {
    // ScriptedSummarizer reports its prompt's count: this one of one's own leaves it out.
    const scripted = new ScriptedSummarizer();
    const noPromptCount: Summarizer = {
      name: 'own-summarizer',
      summarize: async (request) => {
        const { text, finishReason, outputTokens } = await scripted.summarize(request);
        return { text, finishReason, outputTokens };
      },
    };
    const guard = new ContextGuard({
      contextWindow: 8_000,
      maskKeepRecent: 0,
      prepareTurnsAhead: 0,
      summarizer: noPromptCount,
      prices: { 'scripted-model': PRICE },
    });
    const h = createHarness({ window: 8_000, script: toolThenAnswerScript(3_000), plugins: [guard] });
    const stored = await turnsUntilCompaction(h, guard);
    const status = guard.status(stored, 'worker');
    expect(status.summarizerCalls).toBe(status.compactions);
    expect(status.unpricedSummarizerCalls).toBe(status.summarizerCalls);
    expect(status.summarizerPromptTokens).toBe(0);
    expect(status.summarizerCostUsd).toBeUndefined();
    expect(status.unpricedCalls).toBe(0);
  });
});
