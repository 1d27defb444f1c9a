/**
 * Cost over a long tool-heavy session on a 128k window: billed prompt tokens
 * (every accepted model call plus every summarizer call) and overflows, for
 *
 * - no compaction (and, for reference, no compaction on a 1M window, where the
 *   same session never overflows: what it costs un-compacted),
 * - ADK's built-in `TokenBasedContextCompactor` (threshold 80% of the window on
 *   the last reported prompt size, the last 6 events kept, ADK's `LlmSummarizer`),
 * - ContextGuard with its defaults (threshold 80% of the window, calibrated).
 *
 * All three run the same 60 planned turns (2-3 tool calls each, payloads of
 * 3 to 60 KB of JSON, logs, code, prose and CJK) against the same strict
 * scripted model, which rejects any request over the window with Gemini's
 * 400 error and reports the ground-truth size of the others. Rejected calls are
 * not billed; a turn whose call is rejected fails. The summarizer is a scripted
 * model with a 1M window that returns a 1,500-character summary and is billed
 * like the agent's model.
 *
 * Billed as the simulator bills (simulator/scenario-cost.ts), at gemini-2.5-flash's list prices
 * with the scripted model's emulated implicit cache (src/testing/cached-prefix.ts: a repeated
 * prefix of 2,048 tokens or more at the cached price), the agent's calls and the summarizer's
 * apart. The floor: the session's contents billed once at the full input price, never re-read
 * (the last request of the 1M run, which holds the whole conversation, plus every call's output).
 */
import { LlmSummarizer, TokenBasedContextCompactor, type BaseContextCompactor, type BasePlugin } from '@google/adk';
import { ContextGuard } from '../src/index.js';
import { ScriptedLlm, tokenizerTokenCounter, type RecordedRequest } from '../src/testing/index.js';
import { priceFor } from '../src/index.js';
import { callCostParts } from '../src/internal.js';
import { proseText } from '../src/testing/index.js';
import { PAYLOAD_KINDS, type PayloadKind } from './lib/content.js';
import { exactO200kTokenizer } from './lib/ground-truth.js';
import { APP_NAME, USER_ID, createBenchAgent, quietLogger, runPlannedTurn, type TurnPlan } from './lib/harness.js';

export type Strategy = 'none' | 'none-1m' | 'adk' | 'guard';

export interface CostResult {
  readonly strategy: Strategy;
  readonly label: string;
  readonly turns: number;
  readonly failedTurns: number;
  /** Requests the model rejected as over the window. */
  readonly overflows: number;
  readonly modelCalls: number;
  readonly billedAgentPromptTokens: number;
  /** Of the agent's billed prompt tokens, those the emulated cache served. */
  readonly cachedAgentPromptTokens: number;
  readonly summarizerCalls: number;
  readonly billedSummarizerPromptTokens: number;
  readonly cachedSummarizerPromptTokens: number;
  /** USD at the reference price: the agent's uncached and cached prompt, its output, the summarizer's calls. */
  readonly uncachedUsd: number;
  readonly cachedUsd: number;
  readonly outputUsd: number;
  readonly summarizerUsd: number;
  readonly costUsd: number;
  /** The run's contents billed once at full price (set by `runCost` from the 1M run; 0 alone). */
  readonly floorUsd: number;
  readonly billedPromptTokens: number;
  readonly maxPromptTokens: number;
  readonly compactions: number;
  readonly elapsedMs: number;
}

export const COST_WINDOW = 128_000;
export const LABELS: Record<Strategy, string> = {
  none: 'no compaction',
  'none-1m': 'no compaction, 1M window (reference)',
  adk: 'ADK TokenBasedContextCompactor',
  guard: 'ContextGuard',
};
/** The model every strategy is billed at, as in the simulator. */
const REFERENCE_PRICED_MODEL = 'gemini-2.5-flash';
const AGENT_OUTPUT_TOKENS = 120;
const SUMMARY_OUTPUT_TOKENS = 400;

function referencePrice() {
  const price = priceFor(REFERENCE_PRICED_MODEL);
  if (!price) throw new Error(`no price for ${REFERENCE_PRICED_MODEL}`);
  return price;
}

type BilledRequest = Pick<RecordedRequest, 'promptTokens' | 'cachedPromptTokens' | 'rejected'>;

/** Accepted requests' prompt tokens, cached ones and USD parts at the reference price. */
function bill(requests: readonly BilledRequest[], outputTokens: number) {
  const price = referencePrice();
  const sum = { prompt: 0, cached: 0, uncachedUsd: 0, cachedUsd: 0, outputUsd: 0 };
  for (const request of requests) {
    if (request.rejected) continue;
    const tokens = { promptTokens: request.promptTokens, cachedPromptTokens: request.cachedPromptTokens, outputTokens };
    const parts = callCostParts(price, tokens);
    sum.prompt += request.promptTokens;
    sum.cached += Math.min(request.cachedPromptTokens, request.promptTokens);
    sum.uncachedUsd += parts.uncachedUsd;
    sum.cachedUsd += parts.cachedUsd;
    sum.outputUsd += parts.outputUsd;
  }
  return sum;
}

/** The floor of a run of `modelCalls` calls whose whole conversation is `contentTokens`: each content once, uncached. */
function floorUsd(contentTokens: number, modelCalls: number): number {
  const parts = callCostParts(referencePrice(), {
    promptTokens: contentTokens,
    outputTokens: modelCalls * AGENT_OUTPUT_TOKENS,
  });
  return parts.uncachedUsd + parts.outputUsd;
}

const TOOL_SIZES = [4_000, 9_000, 16_000, 30_000, 6_000, 12_000, 3_000, 60_000, 8_000, 20_000];

/** The plan of turn `t`: 2 or 3 tool calls with rotating payloads, then an answer. */
export function costPlan(turn: number): TurnPlan {
  const calls = 2 + (turn % 2);
  const tools = Array.from({ length: calls }, (_, i) => {
    const kind = PAYLOAD_KINDS[(turn * 3 + i) % PAYLOAD_KINDS.length] as PayloadKind;
    const size = TOOL_SIZES[(turn * 7 + i * 3) % TOOL_SIZES.length] as number;
    return { kind, size: kind === 'cjk' ? Math.ceil(size / 3) : size, seed: turn * 100 + i };
  });
  return { tools, answerChars: 800, seed: turn };
}

function summaryModel(
  countTokens: (request: Parameters<ReturnType<typeof tokenizerTokenCounter>>[0]) => number,
): ScriptedLlm {
  return new ScriptedLlm({
    model: 'scripted-summarizer',
    window: 1_000_000,
    countTokens,
    script: ({ index }) => ({
      content: { role: 'model', parts: [{ text: `## Current state\n${proseText(1_500, 7_000 + index)}` }] },
    }),
    outputTokens: SUMMARY_OUTPUT_TOKENS,
  });
}

export async function runCostStrategy(strategy: Strategy, options: { turns?: number } = {}): Promise<CostResult> {
  const started = performance.now();
  const turns = options.turns ?? 60;
  const truth = tokenizerTokenCounter(exactO200kTokenizer());
  const summarizer = summaryModel(truth);
  let compactor: BaseContextCompactor | undefined;
  const plugins: BasePlugin[] = [];
  let guard: ContextGuard | undefined;
  if (strategy === 'adk') {
    compactor = new TokenBasedContextCompactor({
      tokenThreshold: Math.floor(COST_WINDOW * 0.8),
      eventRetentionSize: 6,
      summarizer: new LlmSummarizer({ llm: summarizer }),
    });
  } else if (strategy === 'guard') {
    guard = new ContextGuard({ contextWindow: COST_WINDOW, summarizer, logger: quietLogger() });
    plugins.push(guard);
  }
  const bench = createBenchAgent({
    window: strategy === 'none-1m' ? 1_000_000 : COST_WINDOW,
    countTokens: truth,
    plugins,
    ...(compactor ? { compactors: [compactor] } : {}),
    modelName: 'scripted-cost',
  });
  const session = await bench.sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
  let failedTurns = 0;
  let overflows = 0;
  let modelCalls = 0;
  let maxPrompt = 0;
  const agentRequests: BilledRequest[] = [];
  for (let turn = 1; turn <= turns; turn++) {
    const outcome = await runPlannedTurn(
      bench,
      session.id,
      `Turn ${turn}: ${proseText(160, turn)} Look it up with the tools.`,
      costPlan(turn),
    );
    if (outcome.errors.length > 0 || outcome.thrown) failedTurns++;
    for (const request of outcome.requests) {
      modelCalls++;
      agentRequests.push(request);
      if (request.rejected) overflows++;
      else maxPrompt = Math.max(maxPrompt, request.promptTokens);
    }
  }
  const agent = bill(agentRequests, AGENT_OUTPUT_TOKENS);
  const summary = bill(summarizer.requests, SUMMARY_OUTPUT_TOKENS);
  const summarizerUsd = summary.uncachedUsd + summary.cachedUsd + summary.outputUsd;
  let compactions = summarizer.requests.length;
  if (strategy === 'guard' && guard) {
    const stored = await bench.sessionService.getSession({ appName: APP_NAME, userId: USER_ID, sessionId: session.id });
    compactions = guard.status(stored ?? { state: {} }, 'worker').compactions;
  }
  return {
    strategy,
    label: LABELS[strategy],
    turns,
    failedTurns,
    overflows,
    modelCalls,
    billedAgentPromptTokens: agent.prompt,
    cachedAgentPromptTokens: agent.cached,
    summarizerCalls: summarizer.requests.length,
    billedSummarizerPromptTokens: summary.prompt,
    cachedSummarizerPromptTokens: summary.cached,
    billedPromptTokens: agent.prompt + summary.prompt,
    uncachedUsd: agent.uncachedUsd,
    cachedUsd: agent.cachedUsd,
    outputUsd: agent.outputUsd,
    summarizerUsd,
    costUsd: agent.uncachedUsd + agent.cachedUsd + agent.outputUsd + summarizerUsd,
    floorUsd: strategy === 'none-1m' ? floorUsd(maxPrompt, modelCalls) : 0,
    maxPromptTokens: maxPrompt,
    compactions,
    elapsedMs: performance.now() - started,
  };
}

export async function runCost(options: { turns?: number; log?: (line: string) => void } = {}): Promise<CostResult[]> {
  const results: CostResult[] = [];
  for (const strategy of ['none', 'none-1m', 'adk', 'guard'] as const) {
    const result = await runCostStrategy(strategy, options);
    options.log?.(
      `  ${result.label}: billed ${result.billedPromptTokens} prompt tokens, ${result.overflows} overflows, ${result.failedTurns} failed turns`,
    );
    results.push(result);
  }
  // Every strategy runs the same conversation: the 1M run (never compacted, never rejected) holds it whole in its last request.
  const floor = results.find((row) => row.strategy === 'none-1m')?.floorUsd ?? 0;
  return results.map((row) => ({ ...row, floorUsd: floor }));
}
