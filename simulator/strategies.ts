/**
 * The strategies compared in one run, as data. Baselines are expected to
 * overflow and never fail a run; every ContextGuard entry must pass every
 * scenario. A new guard strategy is one more entry in GUARD_STRATEGIES once
 * the package accepts it.
 *
 * The guard's compaction strategies run with tool-output truncation off, so
 * that compaction alone must handle the seed's oversized tool results (what
 * the seed tested); `guard-defaults` is the plugin exactly as a user gets it
 * (threshold compaction plus truncation of tool results over 10 KiB).
 */
import type { AgentPolicy, CompactionStrategy, ContextGuardOptions } from '../src/index.js';

export type StrategyKind = 'none' | 'adk-token-based' | 'context-guard';

/**
 * Guard options a strategy sets (the scenario adds the window, summarizer and its own options):
 * policy fields and prices, plain data that crosses to the worker threads.
 */
export type GuardStrategyOptions = Omit<AgentPolicy, 'summarizer'> & Pick<ContextGuardOptions, 'prices'>;

export interface StrategySpec {
  /** Used by `--strategy` and in the JSON results. */
  readonly name: string;
  readonly label: string;
  readonly kind: StrategyKind;
  /** The guard's compaction strategy, for `context-guard` entries. */
  readonly guardStrategy?: CompactionStrategy;
  readonly guardOptions?: GuardStrategyOptions;
  /**
   * Whether the scenario's claims about compaction (counts, shrunk results,
   * mid-chain compaction) apply; the invariants always do.
   */
  readonly checksCompactionClaims: boolean;
  /** A baseline never fails the run. */
  readonly baseline: boolean;
  /**
   * The guard is given no `summarizer`, so the agents' own model summarizes, as a user with default
   * options runs it (a scenario that scripts its summarizer's failures still passes its own).
   */
  readonly ownModelSummarizes?: boolean;
}

export const GUARD_STRATEGIES: readonly CompactionStrategy[] = ['threshold', 'sliding-window'];

/** ADK's TokenBasedContextCompactor keeps this many raw events (the latest exchange and its tool step). */
export const ADK_EVENT_RETENTION = 4;

export const STRATEGIES: readonly StrategySpec[] = [
  { name: 'none', label: 'No compaction', kind: 'none', checksCompactionClaims: false, baseline: true },
  {
    name: 'adk-token-based',
    label: 'ADK TokenBasedContextCompactor',
    kind: 'adk-token-based',
    checksCompactionClaims: false,
    baseline: true,
  },
  ...GUARD_STRATEGIES.map((strategy): StrategySpec => ({
    name: `guard-${strategy}`,
    label: `ContextGuard ${strategy}`,
    kind: 'context-guard',
    guardStrategy: strategy,
    guardOptions: { strategy, toolOutputTruncation: false },
    checksCompactionClaims: true,
    baseline: false,
  })),
  {
    name: 'guard-defaults',
    label: 'ContextGuard defaults (threshold + tool-output truncation)',
    kind: 'context-guard',
    guardStrategy: 'threshold',
    guardOptions: {},
    checksCompactionClaims: false,
    baseline: false,
    ownModelSummarizes: true,
  },
];

/** The guard strategies with `options` over their own (`--guard-options`); baselines unchanged. */
export function withGuardOptions(strategies: readonly StrategySpec[], options: GuardStrategyOptions): StrategySpec[] {
  return strategies.map((strategy) =>
    strategy.kind === 'context-guard'
      ? { ...strategy, guardOptions: { ...strategy.guardOptions, ...options } }
      : strategy,
  );
}

/** Strategies selected by `--strategy NAME` (a name, or a guard strategy such as `threshold`). */
export function selectStrategies(name: string | undefined): StrategySpec[] {
  if (!name) return [...STRATEGIES];
  const selected = STRATEGIES.filter(
    (strategy) =>
      strategy.name === name || (strategy.guardOptions?.strategy === name && strategy.checksCompactionClaims),
  );
  if (selected.length === 0) {
    throw new Error(`unknown strategy '${name}'; known: ${STRATEGIES.map((strategy) => strategy.name).join(', ')}`);
  }
  return selected;
}
