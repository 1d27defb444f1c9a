/**
 * The recorded public runs (simulator/trajectories/, selection rule in
 * docs/simulator.md "Recorded trajectories"), each replayed whole at 8k,
 * 16k, 32k and 128k under no guard, ADK's compactor and the guard's defaults:
 * the workloads of issue 27's cost measure.
 */
import type { ScenarioSpec } from '../scenario-types.js';
import { loadTrajectories } from '../trajectories/load-trajectories.js';
import { toolCallCount, type RecordedRun } from '../trajectories/recorded-run.js';

export const REPLAY_WINDOWS: readonly number[] = [8_192, 16_384, 32_768, 131_072];

/** The strategies of the cost measure: the baselines and the plugin as a user gets it. */
export const REPLAY_STRATEGIES: readonly string[] = ['none', 'adk-token-based', 'guard-defaults'];

function replayScenario(run: RecordedRun, window: number): ScenarioSpec {
  const label = run.kind === 'support' ? 'support dialogue' : 'coding run';
  return {
    name: `${window / 1_024}k_Replay_${run.id}`,
    group: 'replay',
    claim: `Replays a recorded ${label} whole (${run.turns.length} user turns, ${toolCallCount(run)} tool calls) from ${run.source}.`,
    window,
    turns: run.turns.length,
    ratio: 1,
    usage: 'always',
    turnPattern: { tools: [] },
    replay: run,
    strategies: REPLAY_STRATEGIES,
  };
}

export function replayScenarios(runs: readonly RecordedRun[]): ScenarioSpec[] {
  return REPLAY_WINDOWS.flatMap((window) => runs.map((run) => replayScenario(run, window)));
}

export const REPLAYS: readonly ScenarioSpec[] = replayScenarios([
  ...loadTrajectories('support'),
  ...loadTrajectories('coding'),
  ...loadTrajectories('long-coding'),
]);
