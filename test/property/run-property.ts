/**
 * Shared plumbing of the model-based properties: the command list, the run
 * loop, the time budget and the counts the suite prints.
 *
 * Reproduce a failure with the seed (and path) fast-check prints:
 *   FC_SEED=<seed> FC_PATH=<path> FC_REPLAY_PATH=<replayPath> npx vitest run test/property/<file>
 * Raise the effort locally with FC_RUNS=<n> FC_TIME_LIMIT_MS=<ms>; FC_SLOW_MS=<ms> prints every run
 * slower than that with its world and commands (to find what makes the suite slow).
 */
import fc from 'fast-check';
import { afterAll, expect, it } from 'vitest';
import type { CheckOptions, WorldConfig, WorldStats } from '../support/guarded-world.js';
import { GuardedWorld, agentNames, emptyWorldStats } from '../support/guarded-world.js';
import { largeToolOutputTurn, summarizerMode, turnPlan } from '../support/conversation-arbitraries.js';
import {
  HugeUserMessage,
  Restart,
  ReportUsage,
  SetSummarizer,
  UserTurn,
  Drift,
  type GuardCommand,
  type Ledger,
} from './guard-commands.js';
import type { PayloadKind } from '../support/payloads.js';

/** What the suite prints: the checks' figures over every run, and the runs and commands. */
export interface PropertyCounts extends WorldStats {
  runs: number;
  commands: number;
}

export function emptyCounts(): PropertyCounts {
  return { runs: 0, commands: 0, ...emptyWorldStats() };
}

/** The commands of one run, for the topology of `config` (a chain, so the turn plans know the agents). */
export function commandsFor(
  config: WorldConfig,
  drift: fc.Arbitrary<number>,
  maxCommands: number,
): fc.Arbitrary<Iterable<GuardCommand>> {
  const agents = agentNames(config.topology);
  const roots = config.topology === 'two-roots' ? 2 : 1;
  const commands: Array<fc.Arbitrary<GuardCommand>> = [
    turnPlan(agents, roots).map((plan) => new UserTurn(plan)),
    turnPlan(agents, roots).map((plan) => new UserTurn(plan)),
    turnPlan(agents, roots).map((plan) => new UserTurn(plan)),
    largeToolOutputTurn(agents, roots).map((plan) => new UserTurn(plan)),
    // Whitespace-free kinds (hex, base64) are left to faults-input.test.ts, which runs them in a child process it can
    // kill: a stall there would block this worker past any timeout.
    fc
      .tuple(
        fc.constantFrom<PayloadKind>('log', 'prose', 'cjk', 'emoji'),
        fc.double({ min: 0.3, max: 1.6, noNaN: true }),
        fc.integer({ min: 0, max: roots - 1 }),
      )
      .map(([kind, fraction, entry]) => new HugeUserMessage(kind, fraction, entry)),
    fc.boolean().map((on) => new ReportUsage(on)),
    drift.map((factor) => new Drift(factor)),
    summarizerMode.map((mode) => new SetSummarizer(mode)),
    fc.constant(new Restart()),
  ];
  const replayPath = process.env['FC_REPLAY_PATH'];
  return fc.commands(commands, { maxCommands, size: '+1', ...(replayPath ? { replayPath } : {}) });
}

export interface GuardPropertyOptions {
  readonly world: fc.Arbitrary<WorldConfig>;
  readonly drift: fc.Arbitrary<number>;
  readonly checks: CheckOptions;
  readonly numRuns: number;
  readonly timeLimitMs: number;
  readonly maxCommands: number;
  /** Characters of payload a run may request in total. */
  readonly payloadCap: number;
  readonly counts: PropertyCounts;
  /** Counterexamples found earlier, replayed first. */
  readonly examples?: Array<[WorldConfig, Iterable<GuardCommand>]>;
}

/**
 * The seed of a property run: `FC_SEED` when set (to replay a failure); in CI (`CI=true`) the
 * file's pinned seed, so a landing never depends on luck (explore with fresh seeds locally, and
 * pin any counterexample found as an example); else a fresh one.
 */
export function propertySeed(ciSeed: number): number {
  if (process.env['FC_SEED'] !== undefined) return Number(process.env['FC_SEED']) | 0;
  if (process.env['CI'] === 'true') return ciSeed;
  return (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
}

/** Runs the model-based property with `seed` (print it with the counts). */
export async function assertGuardProperty(seed: number, options: GuardPropertyOptions): Promise<void> {
  const path = process.env['FC_PATH'];
  const numRuns = Number(process.env['FC_RUNS'] ?? options.numRuns);
  const timeLimit = Number(process.env['FC_TIME_LIMIT_MS'] ?? options.timeLimitMs);
  const { counts } = options;
  const scenario = options.world.chain((config) =>
    fc.tuple(fc.constant(config), commandsFor(config, options.drift, options.maxCommands)),
  );
  await fc.assert(
    fc.asyncProperty(scenario, async ([config, commands]) => {
      const world = await GuardedWorld.create(config);
      const runStarted = Date.now();
      const largestWindow = Math.max(...config.windows.slice(0, agentNames(config.topology).length));
      const ledger: Ledger = {
        commands: 0,
        turns: 0,
        payloadChars: 0,
        restarts: 0,
        payloadCap: options.payloadCap,
        largestWindow,
        checks: options.checks,
      };
      try {
        await fc.asyncModelRun(async () => ({ model: ledger, real: world }), commands);
      } finally {
        if (process.env['FC_SLOW_MS'] && Date.now() - runStarted > Number(process.env['FC_SLOW_MS'])) {
          console.log(
            `[property] slow run: ${Date.now() - runStarted} ms, ${JSON.stringify(config)}\n  ${[...commands].map(String).join('\n  ')}`,
          );
        }
        counts.runs++;
        counts.commands += ledger.commands;
        // The world counts summarizer calls only when its state is checked; the summarizer itself always does.
        const stats: WorldStats = { ...world.stats, summarizerCalls: world.summarizer.calls.length };
        for (const key of Object.keys(stats) as (keyof WorldStats)[]) counts[key] += stats[key];
      }
    }),
    {
      seed,
      ...(path ? { path } : {}),
      numRuns,
      endOnFailure: false,
      plugins: [fc.interruptAfterTimeLimit(timeLimit)],
      ...(options.examples
        ? {
            examples: options.examples.map(
              ([config, commands]) => [[config, commands]] as [[WorldConfig, Iterable<GuardCommand>]],
            ),
          }
        : {}),
    },
  );
}

export function formatCounts(name: string, seed: number, counts: PropertyCounts, elapsedMs: number): string {
  return (
    `[property] ${name}: ${counts.runs} runs, ${counts.commands} commands, ${counts.turns} turns, ${counts.modelCalls} model calls checked ` +
    `(${counts.rejectedCalls} rejected, ${counts.secondRejections} of them right after another, ${counts.overLimitCalls} over-limit warnings, ${counts.aboveThresholdCalls} above the threshold), ${counts.compactions} compactions ` +
    `(${counts.fallbackCompactions} fallback), ${counts.summarizerCalls} summarizer calls, ${counts.restarts} restarts, ` +
    `${counts.transfers} transfers, seed ${seed}, ${(elapsedMs / 1000).toFixed(1)} s`
  );
}

/** Fewer runs than this means the time limit cut the property short on a very slow machine: fail rather than pass quietly. */
const MIN_RUNS = 10;

/** What one property file sets; the effort (runs, time, commands, payload) is the same for every file. */
export type GuardPropertyCase = Pick<GuardPropertyOptions, 'world' | 'drift' | 'checks' | 'examples'>;

/**
 * Declares the property as one test (at least `MIN_RUNS` runs, with `ciSeed` in CI) and prints
 * its counts, labelled `label`, after the file.
 */
export function guardPropertyTest(title: string, label: string, ciSeed: number, property: GuardPropertyCase): void {
  const counts = emptyCounts();
  const seed = propertySeed(ciSeed);
  let elapsed = 0;
  it(
    title,
    async () => {
      const started = Date.now();
      try {
        await assertGuardProperty(seed, {
          ...property,
          numRuns: 100,
          timeLimitMs: 40_000,
          maxCommands: 24,
          payloadCap: 6_000_000,
          counts,
        });
        // A replay (FC_PATH) runs only the failure's shrink path: a handful of runs, which pass once it is fixed.
        if (process.env['FC_PATH'] === undefined) expect(counts.runs).toBeGreaterThanOrEqual(MIN_RUNS);
      } finally {
        elapsed = Date.now() - started;
      }
    },
    120_000,
  );
  afterAll(() => {
    console.log(formatCounts(label, seed, counts, elapsed));
  });
}
