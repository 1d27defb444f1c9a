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

function replayScenario(run: RecordedRun, window: number, kind: string): ScenarioSpec {
  const label = run.kind === 'support' ? 'support dialogue' : 'coding run';
  return {
    name: `${window / 1_024}k_${kind}_${run.id}`,
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

/** Each run at each window; `kind` names them (`8k_Replay_<run>`). */
export function replayScenarios(runs: readonly RecordedRun[], kind = 'Replay'): ScenarioSpec[] {
  return REPLAY_WINDOWS.flatMap((window) => runs.map((run) => replayScenario(run, window, kind)));
}

export const REPLAYS: readonly ScenarioSpec[] = replayScenarios([
  ...loadTrajectories('support'),
  ...loadTrajectories('coding'),
  ...loadTrajectories('long-coding'),
]);

/**
 * A held-out set's runs (docs/simulator.md, "Held-out runs"), named `8k_HeldOut_<run>` (the second set
 * `8k_HeldOut2_<run>`): read only when asked (`npm run simulate -- --held-out`, `-- --held-out-2`), so the
 * default run's figures stay those of the committed runs.
 */
export function heldOutReplays(set: 1 | 2 | 3 = 1): ScenarioSpec[] {
  const folder = set === 1 ? 'held-out' : set === 2 ? 'held-out-2' : 'held-out-3';
  const runs = [...loadTrajectories('support', folder), ...loadTrajectories('long-coding', folder)];
  return replayScenarios(runs, set === 1 ? 'HeldOut' : set === 2 ? 'HeldOut2' : 'HeldOut3');
}
