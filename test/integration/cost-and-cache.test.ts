/**
 * The bill through a real Runner: the strict scripted model reports the
 * implicit-cache prefix as `cachedContentTokenCount`, and the guard keeps
 * per-agent totals, a cost estimate at the price table, and exports both.
 */
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { createHarness, toolThenAnswerScript } from '../support/agent-harness.js';
import { metricsProbe } from '../support/metrics-probe.js';
import { CapturingLogger, ScriptedSummarizer } from '../../src/testing/index.js';

const PRICE = { input: 1, cachedInput: 0.1, output: 10 };

/** Runs `turns` tool-heavy turns under `guard` on a window with room for all (no compaction); returns the guard's status. */
async function billedTurns(guard: ContextGuard, turns: number) {
  const harness = createHarness({ window: 200_000, ratio: 1, script: toolThenAnswerScript(12_000), plugins: [guard] });
  const stored = await harness.sessionAfterTurns(turns);
  return { harness, status: guard.status(stored, 'worker') };
}

describe('a bill that knows caching', () => {
  it('should report cached and uncached prompt tokens and their cost in status() and OpenTelemetry', async () => {
    const probe = metricsProbe().register();
    const guard = new ContextGuard({
      contextWindow: 200_000,
      summarizer: new ScriptedSummarizer(),
      prices: { 'scripted-model': PRICE },
      // The requests grow untouched, so most of each is the cached prefix (masking is tested elsewhere).
      maskStaleOutputTokens: 0,
    });
    const { harness, status } = await billedTurns(guard, 4);

    // What the model itself billed: its ground-truth prompts and the cached prefixes it reported.
    const accepted = harness.model.requests.filter((request) => !request.rejected);
    const prompt = accepted.reduce((sum, request) => sum + request.promptTokens, 0);
    const cached = accepted.reduce((sum, request) => sum + request.cachedPromptTokens, 0);
    expect(cached).toBeGreaterThan(prompt / 2);
    expect(status.promptTokens).toBe(prompt);
    expect(status.cachedPromptTokens).toBe(cached);
    expect(status.uncachedPromptTokens).toBe(prompt - cached);
    expect(status.outputTokens).toBe(accepted.length * 50);
    expect(status.costUsd).toBeCloseTo(
      ((prompt - cached) * PRICE.input + cached * PRICE.cachedInput + accepted.length * 50 * PRICE.output) / 1e6,
      9,
    );
    expect(status.unpricedCalls).toBe(0);

    const exported = await probe.exported();
    const tokens = exported.find((metric) => metric.descriptor.name === 'gen_ai.context_guard.usage.tokens');
    const byType = (type: string): number =>
      (tokens?.dataPoints ?? [])
        .filter((point) => point.attributes['gen_ai.token.type'] === type)
        .reduce((sum, point) => sum + Number(point.value), 0);
    expect(byType('cached_input')).toBe(cached);
    expect(byType('input')).toBe(prompt - cached);
    const cost = exported.find((metric) => metric.descriptor.name === 'gen_ai.context_guard.usage.cost');
    expect(cost?.dataPoints.reduce((sum, point) => sum + Number(point.value), 0)).toBeCloseTo(status.costUsd ?? 0, 9);
    await probe.shutdown();
  });

  it('should count tokens but leave the cost out for a model without a price, and say so once', async () => {
    const logger = new CapturingLogger();
    const guard = new ContextGuard({ contextWindow: 200_000, summarizer: new ScriptedSummarizer(), logger });
    const { harness, status } = await billedTurns(guard, 1);
    expect(status.promptTokens).toBeGreaterThan(0);
    expect(status.costUsd).toBeUndefined();
    expect(status.unpricedCalls).toBe(harness.model.requests.length);
    expect(harness.model.requests.length).toBeGreaterThan(1);
    const notices = logger.matching("no price is known for model 'scripted-model'");
    expect(notices.map((line) => line.level)).toEqual(['info']);
  });

  it('should reject a malformed price table at construction', () => {
    expect(() => new ContextGuard({ prices: { 'gemini-2.5-flash': { input: -1, output: 1 } } })).toThrow(
      /prices\.gemini-2\.5-flash\.input/,
    );
  });

  it('should name a misspelt price field, which would otherwise bill cached tokens at the full price unseen', () => {
    const misspelt = { 'my-model': { input: 1, cachedInpt: 0.1, output: 2 } } as never;
    expect(() => new ContextGuard({ prices: misspelt })).toThrow(
      /'prices\.my-model\.cachedInpt' is not a price field \(did you mean 'cachedInput'\?\)/,
    );
    // The same inside the long-context tier, where a misspelt rate billed NaN and reset the total.
    const tier = {
      'my-model': { input: 1, output: 2, longContext: { threshold: 6_000, Input: 2, output: 2 } },
    } as never;
    expect(() => new ContextGuard({ prices: tier })).toThrow(
      /'prices\.my-model\.longContext\.Input' is not a price field/,
    );
  });
});
