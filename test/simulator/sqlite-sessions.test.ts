/**
 * A few scenarios on ADK's DatabaseSessionService (in-memory SQLite): the
 * guard's summary, watermark and counters go through a real database round
 * trip (JSON columns, snake_case conversion) on every event.
 */
import { ALL_SCENARIOS } from '../../simulator/scenarios/index.js';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../simulator/run-scenario.js';
import { STRATEGIES } from '../../simulator/strategies.js';

const NAMES = [
  '8k_SmallToolCalls',
  '8k_SequentialToolChain',
  '8k_NoUsageMetadata_BeyondDefault',
  '32k_MultiAgent_Transfer',
];

describe('scenarios on DatabaseSessionService (SQLite)', () => {
  const strategy = STRATEGIES.find((candidate) => candidate.name === 'guard-threshold');
  for (const name of NAMES) {
    it(`${name} · guard-threshold · sqlite`, async () => {
      const scenario = ALL_SCENARIOS.find((spec) => spec.name === name);
      if (!scenario || !strategy) throw new Error(`missing ${name}`);
      const result = await runScenario(scenario, strategy, { sessionStore: 'sqlite' });
      expect(result.violations, result.violations.join('\n')).toEqual([]);
      // The guard acted on the stored session: a summary or a masking (both state the database must round-trip).
      expect(result.compactions + result.maskings).toBeGreaterThan(0);
    });
  }
});
