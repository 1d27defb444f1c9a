/** Messages between the simulator's pool and its worker threads. */
import type { GroundTruthMode } from './ground-truth.js';
import type { SessionStore } from './run-scenario.js';
import type { ScenarioResult } from './scenario-result.js';
import type { ScenarioSpec } from './scenario-types.js';
import type { StrategySpec } from './strategies.js';

export interface WorkerJob {
  readonly id: number;
  readonly scenario: ScenarioSpec;
  readonly strategy: StrategySpec;
  readonly groundTruth: GroundTruthMode;
  readonly sessionStore: SessionStore;
}

export type WorkerReply =
  { readonly id: number; readonly result: ScenarioResult } | { readonly id: number; readonly error: string };
