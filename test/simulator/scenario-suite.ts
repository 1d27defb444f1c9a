/**
 * Declares one vitest test per scenario and ContextGuard strategy: the run
 * goes through the real ADK stack and must end with no violation (no
 * overflow beyond the scenario's documented allowance, no orphan, no
 * compaction loop, the current request always present, and every claim of
 * the scenario's name met).
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../simulator/run-scenario.js';
import type { ScenarioSpec } from '../../simulator/scenario-types.js';
import { STRATEGIES, type StrategySpec } from '../../simulator/strategies.js';

/** Every ContextGuard entry of the strategy list (baselines are not tested here: they are expected to fail). */
export const GUARD_STRATEGIES: readonly StrategySpec[] = STRATEGIES.filter((strategy) => !strategy.baseline);

/** The guard's default tool-output limit (10 KiB of JSON); below it `guard-defaults` runs exactly like `guard-threshold`. */
const DEFAULT_TRUNCATION_CHARS = 10 * 1_024;

function hasLargeToolResults(scenario: ScenarioSpec): boolean {
  return scenario.turnPattern.tools.some((turn) =>
    turn.some((step) => step.some((call) => call.size > DEFAULT_TRUNCATION_CHARS)),
  );
}

/** `guard-defaults` only where its truncation changes the run: elsewhere it would repeat `guard-threshold` call for call. */
function applies(scenario: ScenarioSpec, strategy: StrategySpec): boolean {
  return strategy.name !== 'guard-defaults' || hasLargeToolResults(scenario);
}

export function describeGuardScenarios(
  title: string,
  scenarios: readonly ScenarioSpec[],
  strategies: readonly StrategySpec[] = GUARD_STRATEGIES,
): void {
  describe(title, () => {
    for (const scenario of scenarios) {
      for (const strategy of strategies.filter((candidate) => applies(scenario, candidate))) {
        it(`${scenario.name} · ${strategy.name}`, async () => {
          const result = await runScenario(scenario, strategy);
          expect(result.violations, `${scenario.claim}\n${result.violations.join('\n')}`).toEqual([]);
          expect(result.passed).toBe(true);
          expect(result.overflows).toBeLessThanOrEqual(scenario.expect?.maxRejected ?? 0);
          // The run really happened: every turn reached the model at least once.
          expect(result.modelCalls).toBeGreaterThanOrEqual(scenario.turns);
        });
      }
    }
  });
}
