/**
 * The outcome of one scenario under one strategy: the numbers of the summary
 * table and the JSON file, the per-call series the report charts, and the
 * violations that decide `passed`.
 */
import type { CallRecord } from './call-record.js';
import type { ToolWorkFacts } from './tool-work.js';

export interface ScenarioResult {
  readonly name: string;
  readonly group: string;
  readonly claim: string;
  readonly strategy: string;
  readonly strategyLabel: string;
  /** A baseline's failure never fails the run. */
  readonly baseline: boolean;
  readonly window: number;
  /** Where ContextGuard's default policy starts compacting once calibrated (window minus buffer). */
  readonly threshold: number;
  readonly turns: number;
  readonly ratio: string;
  readonly usage: string;
  readonly groundTruth: string;
  readonly modelCalls: number;
  /** Requests the model rejected as over its window. */
  readonly overflows: number;
  readonly compactions: number;
  /** The guard's maskings of old tool results (no model call). */
  readonly maskings: number;
  readonly summarizerCalls: number;
  /**
   * Turns in which a call waited for a summary, and the wall time added, in virtual time: model
   * 150 ms per call, summarizer 400 ms (simulator/summary-waits.ts).
   */
  readonly turnsWaitedForSummary: number;
  readonly summaryWaitMs: number;
  /** Summarizer calls that failed, hung, returned nothing or were rejected (the guard then used its fallback). */
  readonly summarizerFailures: number;
  readonly maxPromptTokens: number;
  readonly meanPromptTokens: number;
  /** maxPromptTokens / window. */
  readonly peakWindowUse: number;
  readonly meanWindowUse: number;
  /** Prompt tokens of accepted model calls plus accepted summarizer calls. */
  readonly billedPromptTokens: number;
  /** Of those, the tokens the model served from its implicit cache for the agents' calls (summarizer calls apart). */
  readonly cachedPromptTokens: number;
  /** Prompt tokens of the accepted summarizer calls alone (part of `billedPromptTokens`). */
  readonly summarizerPromptTokens: number;
  /** Of `summarizerPromptTokens`, those the cache served (a summary asked of the agent's own model reads its prefix). */
  readonly summarizerCachedPromptTokens: number;
  /** Prompt tokens of the accepted model calls billed at the full input price (not cached). */
  readonly uncachedPromptTokens: number;
  readonly summarizerOutputTokens: number;
  /** USD of every accepted call, summarizer included, at Gemini 2.5 Flash list prices (see scenario-cost.ts). */
  readonly costUsd: number;
  /** `costUsd` apart: model calls' uncached prompt, cached prompt and output; summarizer input and output. */
  readonly uncachedUsd: number;
  readonly cachedUsd: number;
  readonly outputUsd: number;
  readonly summarizerInputUsd: number;
  readonly summarizerOutputUsd: number;
  /** What no context strategy goes below on this run: the output, and each request's new contents once, uncached (see scenario-cost.ts). */
  readonly costFloorUsd: number;
  /** Turns that ended in an error event or an exception. */
  readonly failedTurns: number;
  readonly violations: readonly string[];
  readonly passed: boolean;
  readonly durationMs: number;
  readonly calls: readonly CallRecord[];
  /** Virtual milliseconds each call waited for a summary, by call. */
  readonly summaryWaitsMs: readonly number[];
  /** A tool-work scenario's facts: recall calls, tool runs, stored answers (simulator/tool-work.ts). */
  readonly toolWork?: ToolWorkFacts;
}

/** The JSON form (`--json FILE`): everything but the per-call series. */
export type ScenarioResultJson = Omit<ScenarioResult, 'calls' | 'summaryWaitsMs'>;

export function toJson(result: ScenarioResult): ScenarioResultJson {
  const { calls: _calls, summaryWaitsMs: _waits, ...rest } = result;
  return rest;
}
