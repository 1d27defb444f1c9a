/**
 * A worker thread of the simulator's pool: runs the jobs it is sent, one at
 * a time, and posts back their results. Scenarios and strategies are plain
 * data, so they cross the thread boundary by structured clone.
 */
import { parentPort } from 'node:worker_threads';
import type { Tokenizer } from '../src/index.js';
import { loadGroundTruthTokenizer } from './gemma-tokenizer.js';
import { runScenario } from './run-scenario.js';
import type { WorkerJob, WorkerReply } from './worker-protocol.js';

let tokenizer: Promise<Tokenizer> | undefined;

parentPort?.on('message', (job: WorkerJob) => {
  void (async () => {
    try {
      if (job.groundTruth === 'tokenizer') tokenizer ??= loadGroundTruthTokenizer().then((loaded) => loaded.tokenizer);
      const result = await runScenario(job.scenario, job.strategy, {
        tokenizer: job.groundTruth === 'tokenizer' ? await tokenizer : undefined,
        sessionStore: job.sessionStore,
      });
      parentPort?.postMessage({ id: job.id, result } satisfies WorkerReply);
    } catch (error) {
      parentPort?.postMessage({
        id: job.id,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      } satisfies WorkerReply);
    }
  })();
});
