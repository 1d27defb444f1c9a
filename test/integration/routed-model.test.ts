/**
 * An agent on ADK's `RoutedLlm`, through a real Runner: a router over an 8k and a 32k model that tries the small one
 * first and fails over to the large one. Each call may go to either, so the guard holds every request to the smaller
 * window. The ninth outside trial found the routed name taken for an unknown model of 128k: every request over 8k
 * was rejected by the small model, a rejection ADK's routing catches and the guard never sees, and sent again to the
 * large one (16 of 94 provider calls), with `status()` showing neither.
 */
import { RoutedLlm, type BaseLlm, type LlmRouter } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ScriptedLlm, ratioTokenCounter } from '../../src/testing/index.js';
import { toolThenAnswerScript } from '../support/agent-harness.js';
import { routedRun } from '../support/routed-run.js';

/** A model of `window` tokens that counts 1.2x the guard's estimate. */
function scripted(model: string, window: number): ScriptedLlm {
  return new ScriptedLlm({ model, window, countTokens: ratioTokenCounter(1.2), script: toolThenAnswerScript(3_000) });
}

/** The small model first; after its error, the large one. */
const failover: LlmRouter = (_models, _request, error) =>
  error === undefined ? 'small' : error.failedKeys.has('large') ? undefined : 'large';

function routedRunOf(models: Record<string, BaseLlm>, modelWindows: Record<string, number>, modelName?: string) {
  return routedRun(new RoutedLlm({ models, router: failover, ...(modelName ? { modelName } : {}) }), { modelWindows });
}

describe('an agent on a RoutedLlm', () => {
  it("should hold every request to the smallest of its models' windows, so that no call fails over for its size", async () => {
    const small = scripted('scripted-small', 8_000);
    const large = scripted('scripted-large', 32_000);
    const { errors, status, logger } = await routedRunOf(
      { small, large },
      { 'scripted-small': 8_000, 'scripted-large': 32_000 },
    );
    expect(errors).toEqual([]);
    expect(status.window).toBe(8_000);
    expect(small.requests).toHaveLength(40);
    // The history reached the small window: masking and summaries kept it under.
    expect(Math.max(...small.requests.map((request) => request.promptTokens))).toBeGreaterThan(5_000);
    expect(small.requests.filter((request) => request.rejected)).toEqual([]);
    // Never sent to the large model: only a rejection by the small one fails over.
    expect(large.requests).toEqual([]);
    // Both windows name a model the app uses, inside the routed one.
    expect(logger.matching('names no model this app uses')).toEqual([]);
  });

  it('should read the models of a RoutedLlm given its own name from the model itself', async () => {
    const small = scripted('scripted-small', 8_000);
    const large = scripted('scripted-large', 32_000);
    const { errors, status, logger } = await routedRunOf(
      { small, large },
      { 'scripted-small': 8_000, 'scripted-large': 32_000 },
      'support-router',
    );
    expect(errors).toEqual([]);
    expect(status.window).toBe(8_000);
    expect(large.requests).toEqual([]);
    // No "unknown model 'support-router'": its models are known.
    expect(logger.matching('unknown model')).toEqual([]);
    expect(logger.matching('names no model this app uses')).toEqual([]);
  });

  it("should hold a RoutedLlm named after a known model, or inside another, to its smallest model's window", async () => {
    for (const build of [
      (models: Record<string, BaseLlm>) => new RoutedLlm({ models, router: failover, modelName: 'gemini-2.5-flash' }),
      (models: Record<string, BaseLlm>) =>
        new RoutedLlm({
          models: {
            small: new RoutedLlm({ models: { only: models['small']! }, router: () => 'only' }),
            large: models['large']!,
          },
          router: failover,
        }),
    ]) {
      const small = scripted('scripted-small', 8_000);
      const large = scripted('scripted-large', 32_000);
      const { errors, status } = await routedRun(build({ small, large }), {
        modelWindows: { 'scripted-small': 8_000, 'scripted-large': 32_000 },
      });
      expect(errors).toEqual([]);
      expect(status.window).toBe(8_000);
      expect(large.requests).toEqual([]);
    }
  });

  it('should take the window of the whole routed name when modelWindows gives one', async () => {
    const small = scripted('scripted-small', 8_000);
    const large = scripted('scripted-large', 32_000);
    const name = new RoutedLlm({ models: { small, large }, router: failover }).model;
    const { status } = await routedRunOf({ small, large }, { [name]: 7_000, 'scripted-small': 8_000 });
    expect(status.window).toBe(7_000);
  });
});
