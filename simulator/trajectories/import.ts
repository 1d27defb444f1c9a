/**
 * `npx tsx simulator/trajectories/import.ts [--tau-bench FILE] [--swe-agent DIR] [--mini-swe-agent GIT_DIR] [--held-out | --held-out-2]`:
 * applies the selection rules of docs/simulator.md ("Recorded trajectories")
 * to the public sources given and writes the compact runs the simulator
 * replays to simulator/trajectories/data/ (one file per source option); with
 * `--held-out`, the held-out rule's runs ("Held-out runs") of the support and
 * longer coding sources to simulator/trajectories/held-out/; with `--held-out-2`,
 * the second held-out set's to simulator/trajectories/held-out-2/.
 * FILE is tau-bench's `historical_trajectories/gpt-4o-airline.json`, DIR a
 * checkout of SWE-agent (its `trajectories/demonstrations/` is read),
 * GIT_DIR a git directory of SWE-agent/mini-swe-agent holding the pinned
 * pull-request commits of MINI_SWE_AGENT_SOURCES (read with `git`, so the
 * runs come from exactly those commits). Run once; the output is committed
 * with its SOURCE.md.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import {
  convertMiniSweAgentRun,
  miniTaskOf,
  selectMiniSweAgentRuns,
  type MiniSweAgentTrajectory,
} from './convert-mini-swe-agent.js';
import { convertSweAgentRun, selectSweAgentRuns, sweTaskOf, type SweAgentTrajectory } from './convert-swe-agent.js';
import {
  convertTauBenchRun,
  selectHeldOutTauBenchRuns,
  selectTauBenchRuns,
  type TauBenchRun,
} from './convert-tau-bench.js';
import { TRAJECTORY_FILES, type TrajectoryFile, type TrajectoryFolder } from './load-trajectories.js';

const TAU_COMMIT = '59a200c6d575d595120f1cb70fea53cef0632f6b';
const SWE_COMMIT = '3ea751c087f32b16e039a2233dd6eefecef325d5';

/**
 * The longer coding runs' sources, in this order: pull requests of
 * SWE-agent/mini-swe-agent (MIT, its LICENSE.md in each tree) that commit
 * mini-swe-agent runs; each is one source of the rule (its own path order).
 */
const MINI_SWE_AGENT_SOURCES: readonly { readonly ref: string; readonly commit: string }[] = [
  { ref: 'pull/816', commit: 'e5e0fbca1c60561bde25fa473b78717aa4b3f9ec' },
  { ref: 'pull/854', commit: '9672e6b73735e63c59aa91cf830a8db857752c49' },
];

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : path.endsWith('.traj') ? [path] : [];
  });
}

function write(name: string, file: TrajectoryFile, folder: TrajectoryFolder): void {
  const path = new URL(`./${folder}/${name}`, import.meta.url);
  writeFileSync(path, `${JSON.stringify(file)}\n`);
  process.stdout.write(`${name}: ${file.runs.length} runs\n`);
}

const TAU_RULE = { minUsers: 10, minTools: 5, count: 6 } as const;

/** Which held-out set a folder holds: 0 for the committed runs, then 1, 2 (docs/simulator.md, "Held-out runs"). */
function heldOutSet(folder: TrajectoryFolder): number {
  return folder === 'data' ? 0 : folder === 'held-out' ? 1 : 2;
}

/** The support runs of held-out set `set` (0: the committed ones): each set's tasks are none of the sets' before it. */
function supportRunsOf(tauRuns: readonly TauBenchRun[], set: number): TauBenchRun[] {
  const committed = selectTauBenchRuns(tauRuns, TAU_RULE);
  const taken = new Set(committed.map((run) => run.task_id ?? 0));
  let chosen = committed;
  for (let each = 1; each <= set; each++) {
    chosen = selectHeldOutTauBenchRuns(tauRuns, taken, TAU_RULE);
    for (const run of chosen) taken.add(run.task_id ?? 0);
  }
  return chosen;
}

function importSupport(tauPath: string, folder: TrajectoryFolder): void {
  const tauRuns = JSON.parse(readFileSync(tauPath, 'utf8')) as TauBenchRun[];
  const chosen = supportRunsOf(tauRuns, heldOutSet(folder));
  const support = chosen.map((run) => {
    const trial = run.trial ?? 0;
    // A held-out run's task may come back in a later trial: its id names the trial too.
    const id = `airline-task${run.task_id ?? 0}${folder === 'data' ? '' : `-trial${trial}`}`;
    const where = `historical_trajectories/gpt-4o-airline.json (task_id ${run.task_id ?? 0}, trial ${trial})`;
    return convertTauBenchRun(run, id, `sierra-research/tau-bench@${TAU_COMMIT}:${where}`);
  });
  write(TRAJECTORY_FILES.support, { licence: 'MIT (Copyright (c) 2024 Sierra)', runs: support }, folder);
}

function importCoding(swePath: string): void {
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
  write(
    TRAJECTORY_FILES.coding,
    {
      licence:
        'MIT (Copyright (c) 2024 John Yang, Carlos E. Jimenez, Alexander Wettig, Shunyu Yao, Karthik Narasimhan, Ofir Press)',
      runs: coding,
    },
    'data',
  );
}

function git(gitDir: string, ...args: string[]): string {
  return execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/** The longer coding runs' rule: 30 to 95 steps, the first 6 per source; each held-out set the next 6 of the first source. */
const MINI_RULE = { minSteps: 30, maxSteps: 95, count: 6 } as const;

function importLongCoding(gitDir: string, folder: TrajectoryFolder): void {
  const sources = folder === 'data' ? MINI_SWE_AGENT_SOURCES : MINI_SWE_AGENT_SOURCES.slice(0, 1);
  const runs = sources.flatMap(({ ref, commit }) => {
    const paths = git(gitDir, 'ls-tree', '-r', '--name-only', commit)
      .split('\n')
      .filter((path) => path.endsWith('.traj.json'));
    const load = (path: string) => JSON.parse(git(gitDir, 'show', `${commit}:${path}`)) as MiniSweAgentTrajectory;
    // Held-out set n takes the rule's next 6 runs after the n sets before it.
    const set = heldOutSet(folder);
    const rule = { ...MINI_RULE, count: MINI_RULE.count * (set + 1) };
    const chosen = selectMiniSweAgentRuns(paths, load, rule).slice(MINI_RULE.count * set);
    return chosen.map((file) =>
      convertMiniSweAgentRun(
        file.traj,
        `mini-${miniTaskOf(file.path)
          .replace(/[^A-Za-z0-9]+/g, '-')
          .slice(0, 40)}`,
        `SWE-agent/mini-swe-agent@${commit} (${ref}):${file.path}`,
      ),
    );
  });
  write(
    TRAJECTORY_FILES['long-coding'],
    {
      licence: 'MIT (Copyright (c) 2025 Kilian A. Lieret and Carlos E. Jimenez)',
      runs,
    },
    folder,
  );
}

function main(): void {
  const { values } = parseArgs({
    options: {
      'tau-bench': { type: 'string' },
      'swe-agent': { type: 'string' },
      'mini-swe-agent': { type: 'string' },
      'held-out': { type: 'boolean', default: false },
      'held-out-2': { type: 'boolean', default: false },
    },
  });
  const tauPath = values['tau-bench'];
  const swePath = values['swe-agent'];
  const miniGit = values['mini-swe-agent'];
  const folder: TrajectoryFolder = values['held-out-2'] ? 'held-out-2' : values['held-out'] ? 'held-out' : 'data';
  if (!tauPath && !swePath && !miniGit)
    throw new Error(
      'usage: import.ts [--tau-bench FILE] [--swe-agent DIR] [--mini-swe-agent GIT_DIR] [--held-out | --held-out-2]',
    );
  if (swePath && folder !== 'data') throw new Error('a held-out set takes no --swe-agent: every such task is taken');
  if (tauPath) importSupport(tauPath, folder);
  if (swePath) importCoding(swePath);
  if (miniGit) importLongCoding(miniGit, folder);
}

main();
