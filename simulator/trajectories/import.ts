/**
 * `npx tsx simulator/trajectories/import.ts --tau-bench FILE --swe-agent DIR`:
 * applies the selection rule of docs/simulator.md ("Recorded trajectories")
 * to the two public sources and writes the compact runs the simulator
 * replays to simulator/trajectories/data/. FILE is tau-bench's
 * `historical_trajectories/gpt-4o-airline.json`, DIR a checkout of
 * SWE-agent (its `trajectories/demonstrations/` is read). Run once; the
 * output is committed with its SOURCE.md.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { convertSweAgentRun, selectSweAgentRuns, sweTaskOf, type SweAgentTrajectory } from './convert-swe-agent.js';
import { convertTauBenchRun, selectTauBenchRuns, type TauBenchRun } from './convert-tau-bench.js';
import { TRAJECTORY_FILES, type TrajectoryFile } from './load-trajectories.js';

const TAU_COMMIT = '59a200c6d575d595120f1cb70fea53cef0632f6b';
const SWE_COMMIT = '3ea751c087f32b16e039a2233dd6eefecef325d5';

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : path.endsWith('.traj') ? [path] : [];
  });
}

function write(name: string, file: TrajectoryFile): void {
  const path = new URL(`./data/${name}`, import.meta.url);
  writeFileSync(path, `${JSON.stringify(file)}\n`);
  process.stdout.write(`${name}: ${file.runs.length} runs\n`);
}

function main(): void {
  const { values } = parseArgs({ options: { 'tau-bench': { type: 'string' }, 'swe-agent': { type: 'string' } } });
  const tauPath = values['tau-bench'];
  const swePath = values['swe-agent'];
  if (!tauPath || !swePath) throw new Error('usage: import.ts --tau-bench FILE --swe-agent DIR');

  const tauRuns = JSON.parse(readFileSync(tauPath, 'utf8')) as TauBenchRun[];
  const support = selectTauBenchRuns(tauRuns, { minUsers: 10, minTools: 5, count: 6 }).map((run) =>
    convertTauBenchRun(
      run,
      `airline-task${run.task_id ?? 0}`,
      `sierra-research/tau-bench@${TAU_COMMIT}:historical_trajectories/gpt-4o-airline.json (task_id ${run.task_id ?? 0}, trial 0)`,
    ),
  );
  write(TRAJECTORY_FILES.support, { licence: 'MIT (Copyright (c) 2024 Sierra)', runs: support });

  const demoDir = join(swePath, 'trajectories', 'demonstrations');
  const files = walk(demoDir).map((path) => ({
    path: relative(swePath, path),
    traj: JSON.parse(readFileSync(path, 'utf8')) as SweAgentTrajectory,
  }));
  const coding = selectSweAgentRuns(files, { minSteps: 12, count: 6 }).map((file) =>
    convertSweAgentRun(
      file.traj,
      `swe-${sweTaskOf(file.path)
        .replace(/[^A-Za-z0-9]+/g, '-')
        .slice(0, 40)}`,
      `SWE-agent/SWE-agent@${SWE_COMMIT}:${file.path}`,
    ),
  );
  write(TRAJECTORY_FILES.coding, {
    licence:
      'MIT (Copyright (c) 2024 John Yang, Carlos E. Jimenez, Alexander Wettig, Shunyu Yao, Karthik Narasimhan, Ofir Press)',
    runs: coding,
  });
}

main();
