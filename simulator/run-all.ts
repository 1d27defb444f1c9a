/**
 * Runs scenarios x strategies, in this process or on a pool of worker
 * threads (one per core by default: ADK's runner is CPU-bound, and the runs
 * are independent). Results come back in plan order whatever the finishing
 * order; a progress callback sees each one as it finishes.
 */
import { Worker } from 'node:worker_threads';
import type { Tokenizer } from '../src/index.js';
import { loadGroundTruthTokenizer } from './gemma-tokenizer.js';
import type { GroundTruthMode } from './ground-truth.js';
import { runScenario, type SessionStore } from './run-scenario.js';
import type { ScenarioResult } from './scenario-result.js';
import type { ScenarioSpec } from './scenario-types.js';
import type { StrategySpec } from './strategies.js';
import type { WorkerJob, WorkerReply } from './worker-protocol.js';

export interface RunAllOptions {
  readonly scenarios: readonly ScenarioSpec[];
  readonly strategies: readonly StrategySpec[];
  readonly groundTruth: GroundTruthMode;
  /** @default 'memory' */
  readonly sessionStore?: SessionStore;
  /** Worker threads; 1 runs everything in this process. */
  readonly jobs: number;
  readonly onResult?: (result: ScenarioResult, done: number, total: number) => void;
  readonly onStart?: (scenario: ScenarioSpec, strategy: StrategySpec) => void;
}

export interface RunAllOutcome {
  readonly results: ScenarioResult[];
  /** Set when the tokenizer ground truth fell back to tiktoken. */
  readonly groundTruthNote?: string | undefined;
}

interface PlannedJob {
  readonly index: number;
  readonly scenario: ScenarioSpec;
  readonly strategy: StrategySpec;
}

function plan(options: RunAllOptions): PlannedJob[] {
  const jobs: PlannedJob[] = [];
  for (const scenario of options.scenarios)
    for (const strategy of options.strategies)
      if (!scenario.strategies || scenario.strategies.includes(strategy.name))
        jobs.push({ index: jobs.length, scenario, strategy });
  return jobs;
}

async function runInProcess(
  options: RunAllOptions,
  jobs: readonly PlannedJob[],
  tokenizer: Tokenizer | undefined,
): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  for (const job of jobs) {
    options.onStart?.(job.scenario, job.strategy);
    const result = await runScenario(job.scenario, job.strategy, { tokenizer, sessionStore: options.sessionStore });
    results.push(result);
    options.onResult?.(result, results.length, jobs.length);
  }
  return results;
}

/**
 * A worker running run-worker.ts. Node 20 does not apply the tsx loader a
 * worker inherits through execArgv, so a small bootstrap registers tsx's ESM
 * hooks inside the worker before importing the TypeScript module.
 */
function startWorker(): Worker {
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const workerModule = new URL('./run-worker.ts', import.meta.url).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(workerModule)}); });`;
  return new Worker(bootstrap, { eval: true, execArgv: [] });
}

async function runOnWorkers(options: RunAllOptions, jobs: readonly PlannedJob[]): Promise<ScenarioResult[]> {
  const results = new Array<ScenarioResult | undefined>(jobs.length);
  let next = 0;
  let done = 0;
  const size = Math.min(options.jobs, jobs.length);
  const workers = Array.from({ length: size }, () => startWorker());
  try {
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            const feed = (): void => {
              const job = jobs[next++];
              if (!job) return resolve();
              options.onStart?.(job.scenario, job.strategy);
              const message: WorkerJob = {
                id: job.index,
                scenario: job.scenario,
                strategy: job.strategy,
                groundTruth: options.groundTruth,
                sessionStore: options.sessionStore ?? 'memory',
              };
              worker.postMessage(message);
            };
            worker.on('message', (reply: WorkerReply) => {
              if ('error' in reply) return reject(new Error(`scenario run failed in a worker: ${reply.error}`));
              results[reply.id] = reply.result;
              done++;
              options.onResult?.(reply.result, done, jobs.length);
              feed();
            });
            worker.on('error', reject);
            feed();
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  return results.filter((result): result is ScenarioResult => result !== undefined);
}

export async function runAll(options: RunAllOptions): Promise<RunAllOutcome> {
  const jobs = plan(options);
  let tokenizer: Tokenizer | undefined;
  let groundTruthNote: string | undefined;
  if (options.groundTruth === 'tokenizer') {
    const loaded = await loadGroundTruthTokenizer();
    tokenizer = loaded.tokenizer;
    groundTruthNote = loaded.fallbackReason;
  }
  const results =
    options.jobs > 1 && jobs.length > 1
      ? await runOnWorkers(options, jobs)
      : await runInProcess(options, jobs, tokenizer);
  return { results, groundTruthNote };
}
