/**
 * The baselines run in the same harness and are expected to overflow: the
 * strict model rejects their oversized requests, the simulator counts and
 * reports it, and a baseline's failure is a result, never an exception.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../simulator/run-scenario.js';
import { toJson } from '../../simulator/scenario-result.js';
import { ALL_SCENARIOS } from '../../simulator/scenarios/index.js';
import { STRATEGIES } from '../../simulator/strategies.js';

function scenario(name: string) {
  const found = ALL_SCENARIOS.find((spec) => spec.name === name);
  if (!found) throw new Error(`no scenario ${name}`);
  return found;
}

function strategy(name: string) {
  const found = STRATEGIES.find((spec) => spec.name === name);
  if (!found) throw new Error(`no strategy ${name}`);
  return found;
}

describe('baselines', () => {
  it('should count the overflows of an agent without compaction and report them as violations', async () => {
    const result = await runScenario(scenario('8k_EveryTurnExceedsWindow'), strategy('none'));
    expect(result.baseline).toBe(true);
    expect(result.overflows).toBeGreaterThan(0);
    expect(result.maxPromptTokens).toBeGreaterThan(result.window);
    expect(result.calls.filter((call) => call.rejected)).toHaveLength(result.overflows);
    expect(result.passed).toBe(false);
    expect(result.violations.some((violation) => violation.startsWith('overflow:'))).toBe(true);
  });

  it("should show ADK's TokenBasedContextCompactor reacting one call late to a tool result larger than the window", async () => {
    const result = await runScenario(scenario('8k_ToolResponseBiggerThanWindow'), strategy('adk-token-based'));
    expect(result.overflows).toBeGreaterThan(0);
    expect(result.failedTurns).toBeGreaterThan(0);
  });

  it("should count the turns that waited for ADK's compactor, which summarizes inside the turn", async () => {
    const result = await runScenario(scenario('8k_RepeatedCompactions'), strategy('adk-token-based'));
    expect(result.compactions).toBeGreaterThan(0);
    expect(result.turnsWaitedForSummary).toBeGreaterThan(0);
    expect(result.summaryWaitMs).toBe(result.summaryWaitsMs.reduce((total, wait) => total + wait, 0));
    expect(result.summaryWaitMs).toBeGreaterThanOrEqual(400 * result.turnsWaitedForSummary);
  });

  it('should write every field the JSON results promise', async () => {
    const result = await runScenario(scenario('8k_SmallToolCalls'), strategy('guard-threshold'));
    const json = toJson(result);
    for (const field of [
      'name',
      'strategy',
      'window',
      'modelCalls',
      'overflows',
      'compactions',
      'summarizerCalls',
      'maxPromptTokens',
      'billedPromptTokens',
      'cachedPromptTokens',
      'summarizerPromptTokens',
      'costUsd',
      'turnsWaitedForSummary',
      'summaryWaitMs',
      'violations',
      'passed',
    ] as const) {
      expect(json).toHaveProperty(field);
    }
    expect(json).not.toHaveProperty('calls');
    expect(json).not.toHaveProperty('summaryWaitsMs');
    expect(json.billedPromptTokens).toBeGreaterThan(0);
    // The strict model reports a cached prefix once a request repeats 2,048 tokens of the previous one.
    expect(json.cachedPromptTokens).toBeGreaterThan(0);
    expect(json.cachedPromptTokens).toBeLessThan(json.billedPromptTokens - json.summarizerPromptTokens);
    expect(json.costUsd).toBeGreaterThan(0);
  });
});
