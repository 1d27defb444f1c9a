/**
 * What holds of an agent on ADK's `RoutedLlm` beyond a flat router, through a real Runner: routers inside routers, and the price of a router (found by review 11).
 */
import { RoutedLlm, type LlmRouter } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ScriptedLlm, ratioTokenCounter } from '../../src/testing/index.js';
import { toolThenAnswerScript } from '../support/agent-harness.js';
import { routedRun } from '../support/routed-run.js';

function scripted(model: string, window: number): ScriptedLlm {
  return new ScriptedLlm({ model, window, countTokens: ratioTokenCounter(1.2), script: toolThenAnswerScript(3_000) });
}

/** The first key first; after its error, the next. */
const failover: LlmRouter = (models, _request, error) =>
  Object.keys(models).find((key) => !(error?.failedKeys.has(key) ?? false));

describe('an agent on a RoutedLlm of RoutedLlms', () => {
  it("should hold every request to the smallest window of the inner routers' models", async () => {
    const small = scripted('scripted-small', 8_000);
    const medium = scripted('scripted-medium', 16_000);
    const large = scripted('scripted-large', 32_000);
    const inner = new RoutedLlm({ models: { small, medium }, router: failover });
    const outer = new RoutedLlm({ models: { inner, large }, router: failover });
    const { errors, status, logger } = await routedRun(outer, {
      modelWindows: { 'scripted-small': 8_000, 'scripted-medium': 16_000, 'scripted-large': 32_000 },
    });
    expect(errors).toEqual([]);
    expect(status.window).toBe(8_000);
    expect(small.requests.filter((request) => request.rejected)).toEqual([]);
    expect(large.requests).toEqual([]);
    // Every window names a model the app uses, inside the inner router too.
    expect(logger.matching('names no model this app uses')).toEqual([]);
  });
});

describe('an agent on a RoutedLlm of priced models', () => {
  it.each([
    ['a failover between two endpoints of one model', undefined],
    ['the same router given its own name, which lists no models (review 12)', 'flash-failover'],
  ])('should cost its calls when its models have one price: %s', async (_, modelName) => {
    const primary = scripted('gemini-2.5-flash', 1_048_576);
    const backup = scripted('gemini-2.5-flash', 1_048_576);
    const model = new RoutedLlm({ models: { primary, backup }, router: failover, ...(modelName ? { modelName } : {}) });
    const { status, logger } = await routedRun(model, {}, 3);
    expect(status.unpricedCalls).toBe(0);
    expect(status.costUsd).toBeGreaterThan(0);
    expect(logger.matching('no price is known')).toEqual([]);
  });

  it('should leave its calls unpriced, said once, when its models have different prices: which answered is not told', async () => {
    const flash = scripted('gemini-2.5-flash', 1_048_576);
    const lite = scripted('gemini-2.5-flash-lite', 1_048_576);
    const { status, logger } = await routedRun(new RoutedLlm({ models: { flash, lite }, router: failover }), {}, 3);
    expect(status.unpricedCalls).toBe(6);
    expect(logger.matching('no price is known')).toHaveLength(1);
  });
});

describe('an agent on a renamed RoutedLlm of priced models', () => {
  // No cache discount: what a masking for cost breaks costs nothing, so the trade masks where the default ratios would not.
  const prices = { 'priced-model': { input: 1, cachedInput: 1, output: 2 } };

  it("should weigh masking for cost at its models' price, as a plain agent on that model does (the price its calls are billed at)", async () => {
    const plain = await routedRun(scripted('priced-model', 64_000), { prices });
    const primary = scripted('priced-model', 64_000);
    const backup = scripted('priced-model', 64_000);
    const renamed = new RoutedLlm({ models: { primary, backup }, router: failover, modelName: 'my-router' });
    const routed = await routedRun(renamed, { prices, modelWindows: { 'priced-model': 64_000 } });
    expect(plain.status.maskings).toBeGreaterThan(0);
    expect(routed.status.maskings).toBe(plain.status.maskings);
    expect(routed.status.costUsd).toBe(plain.status.costUsd);
  });
});
