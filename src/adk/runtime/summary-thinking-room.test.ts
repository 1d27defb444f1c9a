import { describe, expect, it } from 'vitest';
import { Gemini, RoutedLlm, type BaseLlm } from '@google/adk';
import { ScriptedLlm, ratioTokenCounter } from '../../testing/index.js';
import { DEFAULT_THINKING_ALLOWANCE } from '../../summary/thinking-allowance.js';
import { thinkingRoomOf } from './summary-thinking-room.js';

const named = (model: string): BaseLlm =>
  new ScriptedLlm({
    model,
    window: 32_000,
    countTokens: ratioTokenCounter(1),
    script: () => ({ content: { role: 'model', parts: [] } }),
  });
const routed = (models: BaseLlm[], modelName?: string): RoutedLlm =>
  new RoutedLlm({ models, router: () => models[0]!.model, ...(modelName && { modelName }) });

describe('thinkingRoomOf', () => {
  it("should allow for thinking on ADK's Gemini class whatever its name, and on a model named Gemini", () => {
    const endpoint = new Gemini({ model: 'projects/p/locations/us-central1/endpoints/1234567890', apiKey: 'k' });
    expect(thinkingRoomOf(endpoint, { thinkingBudget: 4_096 })).toBe(4_096);
    expect(thinkingRoomOf(named('gemini-2.5-flash'), undefined)).toBe(DEFAULT_THINKING_ALLOWANCE);
  });

  it('should allow a router only what all of its models allow', () => {
    // Review 56: a Gemini with a local failover sent the allowance to a server that checks input + max_tokens.
    expect(thinkingRoomOf(routed([named('gemini-2.5-flash'), named('qwen3-32b')]), undefined)).toBe(0);
    const both = routed([named('gemini-2.5-flash'), named('gemini-2.5-pro')], 'my-flash-router');
    expect(thinkingRoomOf(both, undefined)).toBe(DEFAULT_THINKING_ALLOWANCE);
    expect(thinkingRoomOf(both, { thinkingBudget: 2_048 })).toBe(2_048);
    expect(thinkingRoomOf(routed([named('gemini-2.5-pro'), named('gemini-2.0-flash')]), undefined)).toBe(0);
  });
});
