/**
 * `npm run simulate [-- options]`: runs every scenario under every strategy
 * through the real ADK stack, shows progress, prints the summary table,
 * writes the HTML report (and the JSON results with --json), and exits 1 when
 * a ContextGuard run fails. Baseline overflows are expected and never fail.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { LogLevel, setLogLevel } from '@google/adk';
import { availableParallelism } from 'node:os';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { GEMMA_TOKENIZER_PACKAGE } from './gemma-tokenizer.js';
import type { GroundTruthMode } from './ground-truth.js';
import { renderReport } from './report-html.js';
import { renderRecallTable, runRecall } from './recall.js';
import { renderToolWorkSaved } from './tool-work-report.js';
import { budgetLineComparisons } from './budget-line-report.js';
import { renderRetentionTable, runRetention } from './retention.js';
import { runAll } from './run-all.js';
import type { SessionStore } from './run-scenario.js';
import { toJson, type ScenarioResult } from './scenario-result.js';
import type { ScenarioSpec } from './scenario-types.js';
import { selectScenarios } from './scenarios/index.js';
import { heldOutReplays } from './scenarios/replays.js';
import { ContextGuard } from '../src/index.js';
import {
  selectStrategies,
  STRATEGIES,
  withGuardOptions,
  type GuardStrategyOptions,
  type StrategySpec,
} from './strategies.js';
import { renderSummaryTable, renderTotals } from './summary-table.js';
import { compareCosts, renderCostComparison } from './cost-comparison.js';
import { renderReplayCost, replayCost } from './replay-cost.js';

/** The cost comparison printed after the table: ContextGuard's defaults against ADK's own compactor (issue 17). */
const COMPARED_STRATEGY = 'guard-defaults';
const COMPARED_BASELINE = 'adk-token-based';

const USAGE = `Usage: npm run simulate -- [options]

  --filter REGEX        only scenarios whose name matches REGEX
  --held-out            replay only the held-out public runs (docs/simulator.md, "Held-out runs"), not the scenarios
  --held-out-2          replay only the second held-out set (the same section)
  --held-out-3          replay only the third held-out set (the same section)
  --strategy NAME       only one strategy: ${STRATEGIES.map((strategy) => strategy.name).join(', ')} (or threshold, sliding-window)
  --ground-truth MODE   ratio (chars/4 x the scenario's ratio, default) or tokenizer (${GEMMA_TOKENIZER_PACKAGE})
  --session-store KIND  memory (InMemorySessionService, default) or sqlite (DatabaseSessionService on in-memory SQLite)
  --guard-options JSON  ContextGuard options over each guard strategy's own (a scenario's own still
                        win), also in the retention and recall experiments, e.g.
                        '{"maskStaleOutputTokens":4096}' (policy fields and prices, not strategy or
                        toolOutputTruncation; validated like the constructor's)
  --json FILE           also write machine-readable results to FILE
  --report FILE         HTML report path (default reports/simulation.html)
  --jobs N              worker threads (default: one per core, at most 4)
  --retention / --no-retention  run the retention and recall experiments (default: on unless --filter, --strategy or --held-out is given)
  --help                this text
`;

interface CliOptions {
  readonly filter: string | undefined;
  /** The held-out set to replay instead of the scenarios (0: none). */
  readonly heldOut: 0 | 1 | 2 | 3;
  readonly strategy: string | undefined;
  readonly groundTruth: GroundTruthMode;
  readonly sessionStore: SessionStore;
  readonly json: string | undefined;
  readonly report: string;
  readonly jobs: number;
  readonly retention: boolean;
  readonly guardOptions: GuardStrategyOptions;
}

/** A flag given at most once: a second would silently replace the first. */
function onlyOne(values: readonly string[] | undefined, flag: string): string | undefined {
  if (values !== undefined && values.length > 1)
    throw new Error(`${flag} was given ${values.length} times; give it once, with every option in one JSON object`);
  return values?.[0];
}

/** Options that make a guard strategy what it is: setting them would run another strategy under its name. */
const STRATEGY_DEFINING_OPTIONS = ['strategy', 'toolOutputTruncation'] as const;

/** `--guard-options`: a JSON object the ContextGuard constructor accepts. */
function parseGuardOptions(text: string | undefined): GuardStrategyOptions {
  if (text === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`--guard-options must be JSON: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error(`--guard-options must be a JSON object of ContextGuard options, not ${text}`);
  // The constructor's own validation: a misspelt or out-of-range option is refused with its name.
  const options: GuardStrategyOptions = parsed;
  const defining = STRATEGY_DEFINING_OPTIONS.filter((name) => name in options);
  if (defining.length > 0)
    throw new Error(
      `--guard-options cannot set ${defining.join(' or ')}: the guard strategies are defined by it (choose one with --strategy)`,
    );
  new ContextGuard(options);
  return options;
}

function parseCli(argv: readonly string[]): CliOptions | undefined {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      filter: { type: 'string' },
      'held-out': { type: 'boolean', default: false },
      'held-out-2': { type: 'boolean', default: false },
      'held-out-3': { type: 'boolean', default: false },
      strategy: { type: 'string' },
      'ground-truth': { type: 'string', default: 'ratio' },
      'session-store': { type: 'string', default: 'memory' },
      json: { type: 'string' },
      'guard-options': { type: 'string', multiple: true },
      report: { type: 'string', default: 'reports/simulation.html' },
      jobs: { type: 'string' },
      retention: { type: 'boolean' },
      'no-retention': { type: 'boolean' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) return undefined;
  const groundTruth = values['ground-truth'];
  if (groundTruth !== 'ratio' && groundTruth !== 'tokenizer')
    throw new Error(`--ground-truth must be ratio or tokenizer, not '${groundTruth}'`);
  const sessionStore = values['session-store'];
  if (sessionStore !== 'memory' && sessionStore !== 'sqlite')
    throw new Error(`--session-store must be memory or sqlite, not '${sessionStore}'`);
  if ([values['held-out'], values['held-out-2'], values['held-out-3']].filter(Boolean).length > 1)
    throw new Error('--held-out, --held-out-2 and --held-out-3 replay one set each: give one');
  const jobs = values.jobs === undefined ? Math.max(1, Math.min(4, availableParallelism())) : Number(values.jobs);
  if (!Number.isInteger(jobs) || jobs < 1) throw new Error(`--jobs must be a positive integer, not '${values.jobs}'`);
  const retention = values['no-retention']
    ? false
    : (values.retention ??
      (values.filter === undefined &&
        values.strategy === undefined &&
        !values['held-out'] &&
        !values['held-out-2'] &&
        !values['held-out-3']));
  return {
    filter: values.filter,
    heldOut: values['held-out-3'] ? 3 : values['held-out-2'] ? 2 : values['held-out'] ? 1 : 0,
    strategy: values.strategy,
    groundTruth,
    sessionStore,
    json: values.json,
    report: values.report ?? 'reports/simulation.html',
    jobs,
    retention,
    guardOptions: parseGuardOptions(onlyOne(values['guard-options'], '--guard-options')),
  };
}

function writeFile(path: string, text: string): string {
  const absolute = resolve(path);
  mkdirSync(dirname(absolute), { recursive: true });
  writeFileSync(absolute, text);
  return absolute;
}

/** The run's --guard-options, as the header line says them. */
function guardOptionsNote(options: GuardStrategyOptions): string {
  return Object.keys(options).length > 0 ? `, guard options: ${JSON.stringify(options)}` : '';
}

/** One progress line, rewritten in place on a terminal. */
function progress(result: ScenarioResult, done: number, total: number): void {
  const verdict = result.passed ? 'ok  ' : result.baseline ? 'over' : 'FAIL';
  const line = `[${String(done).padStart(String(total).length)}/${total}] ${verdict} ${result.name} · ${result.strategy} (${(result.durationMs / 1000).toFixed(1)} s)`;
  if (process.stdout.isTTY) process.stdout.write(`\r\x1b[K${line}${done === total ? '\n' : ''}`);
  else process.stdout.write(`${line}\n`);
}

async function main(): Promise<number> {
  // ADK's own info lines (plugin registered, experimental hooks) would break up the progress and tables.
  setLogLevel(LogLevel.ERROR);
  let options: CliOptions | undefined;
  let scenarios: ScenarioSpec[];
  let strategies: StrategySpec[];
  try {
    options = parseCli(process.argv.slice(2));
    if (!options) {
      process.stdout.write(USAGE);
      return 0;
    }
    scenarios = selectScenarios(options.filter, options.heldOut === 0 ? undefined : heldOutReplays(options.heldOut));
    strategies = withGuardOptions(selectStrategies(options.strategy), options.guardOptions);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  if (scenarios.length === 0) {
    process.stderr.write(`no scenario matches /${options.filter ?? ''}/\n`);
    return 2;
  }
  process.stdout.write(
    `Simulating ${scenarios.length} scenarios × ${strategies.length} strategies on ${Math.min(options.jobs, scenarios.length * strategies.length)} worker(s), ground truth: ${options.groundTruth}, sessions: ${options.sessionStore}${guardOptionsNote(options.guardOptions)}\n`,
  );
  const started = performance.now();
  const outcome = await runAll({
    scenarios,
    strategies,
    groundTruth: options.groundTruth,
    sessionStore: options.sessionStore,
    jobs: options.jobs,
    onResult: progress,
  });
  const durationMs = performance.now() - started;
  const { results } = outcome;
  if (outcome.groundTruthNote) process.stdout.write(`note: ${outcome.groundTruthNote}\n`);

  process.stdout.write(`\n${renderSummaryTable(results)}\n\n${renderTotals(results)}\n`);
  const costComparison = compareCosts(results, COMPARED_STRATEGY, COMPARED_BASELINE);
  if (costComparison) process.stdout.write(`\n${renderCostComparison(costComparison)}\n`);
  const replayCostTable = replayCost(results);
  if (replayCostTable.length > 0) process.stdout.write(`\n${renderReplayCost(replayCostTable)}\n`);
  const toolWorkSaved = renderToolWorkSaved(results);
  const budgetLineRows = budgetLineComparisons(results);
  if (toolWorkSaved) process.stdout.write(`\n${toolWorkSaved}\n`);
  const retention = options.retention ? await runRetention(options.guardOptions) : undefined;
  if (retention) process.stdout.write(`\n${renderRetentionTable(retention)}\n`);
  const recall = options.retention ? await runRecall(options.guardOptions) : undefined;
  if (recall) process.stdout.write(`\n${renderRecallTable(recall)}\n`);
  const groundTruth = results[0]?.groundTruth ?? options.groundTruth;
  const reportPath = writeFile(
    options.report,
    renderReport(results, {
      generatedAt: new Date().toISOString(),
      command: `npm run simulate -- ${process.argv.slice(2).join(' ')}`.trim(),
      groundTruth: outcome.groundTruthNote ? `${groundTruth} (${outcome.groundTruthNote})` : groundTruth,
      durationMs,
      retention,
      recall,
    }),
  );
  process.stdout.write(`\nReport: ${reportPath}\n`);
  if (options.json) {
    const jsonPath = writeFile(
      options.json,
      `${JSON.stringify({ groundTruth, ...(Object.keys(options.guardOptions).length > 0 ? { guardOptions: options.guardOptions } : {}), scenarios: results.map(toJson), ...(costComparison ? { costComparison } : {}), ...(replayCostTable.length > 0 ? { replayCost: replayCostTable } : {}), ...(budgetLineRows.length > 0 ? { budgetLine: budgetLineRows } : {}), ...(retention ? { retention } : {}), ...(recall ? { recall } : {}) }, null, 2)}\n`,
    );
    process.stdout.write(`JSON:   ${jsonPath}\n`);
  }
  const failed = results.filter((result) => !result.baseline && !result.passed);
  process.stdout.write(`Finished in ${(durationMs / 1000).toFixed(1)} s.\n`);
  if (failed.length > 0) {
    process.stdout.write(`\n${failed.length} ContextGuard run(s) failed:\n`);
    for (const result of failed)
      process.stdout.write(
        `  ${result.name} · ${result.strategy}\n${result.violations.map((violation) => `      ${violation}`).join('\n')}\n`,
      );
    return 1;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(2);
  },
);
