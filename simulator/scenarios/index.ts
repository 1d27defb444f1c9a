/** Every scenario, in report order: the seed's 47 first, then the extra ones. */
import type { ScenarioSpec } from '../scenario-types.js';
import { EXTRA } from './extra.js';
import { SEED_BRUTAL } from './seed-brutal.js';
import { SEED_SEQUENTIAL } from './seed-sequential.js';
import { SEED_STRESS } from './seed-stress.js';
import { SEAMS_AGENT_TOOL } from './seams-agent-tool.js';
import { SEAMS_TURN } from './seams-turn.js';
import { SEAMS_WINDOW } from './seams-window.js';
import { REPLAYS } from './replays.js';
import { TOOL_WORK } from './tool-work.js';

export const SEED_SCENARIOS: readonly ScenarioSpec[] = [...SEED_STRESS, ...SEED_BRUTAL, ...SEED_SEQUENTIAL];
export const ALL_SCENARIOS: readonly ScenarioSpec[] = [
  ...SEED_SCENARIOS,
  ...EXTRA,
  ...SEAMS_AGENT_TOOL,
  ...SEAMS_TURN,
  ...SEAMS_WINDOW,
  ...TOOL_WORK,
  ...REPLAYS,
];

/** Scenarios of `from` (every scenario by default) whose name matches `pattern` (all when absent). */
export function selectScenarios(
  pattern: string | undefined,
  from: readonly ScenarioSpec[] = ALL_SCENARIOS,
): ScenarioSpec[] {
  if (!pattern) return [...from];
  const regex = new RegExp(pattern);
  return from.filter((scenario) => regex.test(scenario.name));
}
