/**
 * The guard's defaults in the simulator summarize with the agent's own model (no `summarizer`
 * option), as a user with default options runs it: the scripted model answers the summary request,
 * built from the agent's request, with the scripted summary read from what the request holds, and
 * the bill serves the prefix it shares with the agent's previous call from the emulated cache.
 */
import type { Session } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { decodeSummaryRecord, decodeUsageRecord, stateKeysFor } from '../../src/internal.js';
import { runScenario } from '../../simulator/run-scenario.js';
import { ALL_SCENARIOS } from '../../simulator/scenarios/index.js';
import { STRATEGIES, type StrategySpec } from '../../simulator/strategies.js';

// Gemini 2.5 Flash list prices, USD per token (src/cost/price-table.ts).
const INPUT = 0.3 / 1e6;
const CACHED = 0.03 / 1e6;

const strategy = (name: string): StrategySpec => {
  const found = STRATEGIES.find((entry) => entry.name === name);
  if (!found) throw new Error(`no strategy ${name}`);
  return found;
};
const scenario = ALL_SCENARIOS.find((spec) => spec.name === '8k_NormalConversation');

describe("the simulator's guard defaults summarize with the agent's own model", () => {
  it('should bill the summary request with the cached prefix it shares with the agent, and apply the summary the model wrote', async () => {
    if (!scenario) throw new Error('scenario 8k_NormalConversation is gone');
    let stored: Session | undefined;
    const result = await runScenario(scenario, strategy('guard-defaults'), {
      onStoredSession: (session) => (stored = session),
    });
    expect(result.passed, result.violations.join('\n')).toBe(true);
    expect(result.overflows).toBe(0);
    expect(result.summarizerCalls).toBeGreaterThan(0);
    // Most of the summary's input is the agent's prefix, served from the cache.
    expect(result.summarizerCachedPromptTokens).toBeGreaterThan(result.summarizerPromptTokens / 2);
    expect(result.summarizerCachedPromptTokens).toBeLessThanOrEqual(result.summarizerPromptTokens);
    const uncached = result.summarizerPromptTokens - result.summarizerCachedPromptTokens;
    expect(result.summarizerInputUsd).toBeCloseTo(uncached * INPUT + result.summarizerCachedPromptTokens * CACHED, 12);
    // The summary requests the model served are the summarizer's, not the agent's calls: as many calls as with no guard.
    expect(result.modelCalls).toBe((await runScenario(scenario, strategy('none'))).modelCalls);
    // The summary the guard applied is the model's answer, not the guard's mechanical fallback.
    const summary = decodeSummaryRecord(stored?.state[stateKeysFor('worker').summary]);
    expect(summary?.fallback).toBe(false);
    expect(summary?.text).toContain('## Key facts');
    // The usage the model reported for its summaries is what the simulator bills: what the guard learns from.
    const usage = decodeUsageRecord(stored?.state[stateKeysFor('worker').usage]);
    expect(usage.summarizerOutputTokens).toBe(result.summarizerOutputTokens);
  });

  it('should keep billing a separate scripted summarizer uncached (the guard strategies that are given one)', async () => {
    if (!scenario) throw new Error('scenario 8k_NormalConversation is gone');
    const result = await runScenario(scenario, strategy('guard-threshold'));
    expect(result.summarizerCalls).toBeGreaterThan(0);
    expect(result.summarizerCachedPromptTokens).toBe(0);
    expect(result.summarizerInputUsd).toBeCloseTo(result.summarizerPromptTokens * INPUT, 12);
  });
});
