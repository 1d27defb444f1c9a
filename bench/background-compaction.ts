/**
 * Background compaction (issue #18): does any turn wait for a summary? A real
 * Runner session of 48 tool-using turns on a 16,000-token window, a model that
 * takes 150 ms per call and a summarizer that takes 400 ms, run once per
 * `prepareTurnsAhead` value (0 = every summary made inside the compacting turn,
 * as before). Per run: wall time of every turn, the median, the turns slower
 * than the median by more than 300 ms, rejected calls, summarizer calls,
 * compactions (prepared or not, and what they waited), and whether the turn's
 * own request was in every model call. See docs/performance.md.
 *
 * `npm run bench -- background-compaction` runs this section alone.
 */
import type { LlmRequest, LlmResponse } from '@google/adk';
import { ContextGuard, type CompactionRecord, type Summarizer } from '../src/index.js';
import { ScriptedLlm, ratioTokenCounter } from '../src/testing/index.js';
import { APP_NAME, USER_ID, createHarness, runTurn, toolThenAnswerScript } from '../test/support/agent-harness.js';
import { quietLogger } from './lib/harness.js';
import { quantile } from './lib/stats.js';

const WINDOW = 16_000;
const TURNS = 48;
const MODEL_MS = 150;
export const SUMMARIZER_MS = 400;
const TOOL_CHARS = 3_000;
/** A turn this much slower than the median waited for something. */
const SLOW_MS = 300;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The strict scripted model, answering after `MODEL_MS` like a provider would. */
class SlowScriptedLlm extends ScriptedLlm {
  override async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    await sleep(MODEL_MS);
    yield* super.generateContentAsync(request);
  }
}

function slowSummarizer(summarizerMs: number): Summarizer & { calls: number } {
  const summarizer = {
    name: 'slow-summarizer',
    calls: 0,
    async summarize() {
      summarizer.calls++;
      await sleep(summarizerMs);
      return {
        text: `## Current state\nThe user is reviewing server logs turn by turn (summary ${summarizer.calls}).`,
      };
    },
  };
  return summarizer;
}

export interface BackgroundRun {
  readonly prepareTurnsAhead: number;
  readonly summarizerMs: number;
  readonly turnMs: number[];
  readonly medianMs: number;
  /** Turns (1-based) slower than the median by more than `SLOW_MS`, with their time. */
  readonly slowTurns: { readonly turn: number; readonly ms: number }[];
  readonly rejectedCalls: number;
  readonly modelCalls: number;
  readonly summarizerCalls: number;
  readonly compactions: number;
  readonly preparedCompactions: number;
  /** `waitedMs` of every compaction record. */
  readonly waitedMs: number[];
  /** Model calls that lacked the turn's own user message. */
  readonly callsWithoutCurrentRequest: number;
  readonly failedTurns: number;
  /** Prepared summaries dropped because the history they covered changed. */
  readonly droppedPreparations: number;
}

export async function runBackgroundCompaction(
  prepareTurnsAhead: number,
  summarizerMs = SUMMARIZER_MS,
): Promise<BackgroundRun> {
  const summarizer = slowSummarizer(summarizerMs);
  let dropped = 0;
  const compactions: CompactionRecord[] = [];
  const guard = new ContextGuard({
    contextWindow: WINDOW,
    summarizer,
    prepareTurnsAhead,
    logger: { ...quietLogger(), debug: (line: unknown) => void (String(line).includes('dropped') && dropped++) },
    onCompaction: (record) => void compactions.push(record),
  });
  const script = toolThenAnswerScript(TOOL_CHARS);
  const model = new SlowScriptedLlm({ window: WINDOW, countTokens: ratioTokenCounter(1.8), script });
  const harness = createHarness({ model, plugins: [guard] });
  const session = await harness.sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
  // One untimed turn on another session: module loading and first-use costs are not a wait for a summary.
  const warmup = await harness.sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
  await runTurn(harness.runner, warmup.id, 'Warm-up: fetch the logs.');
  const turnMs: number[] = [];
  let callsWithoutCurrentRequest = 0;
  let failedTurns = 0;
  for (let turn = 1; turn <= TURNS; turn++) {
    const text = `Turn ${turn}: fetch the latest logs and tell me what changed.`;
    const from = model.requests.length;
    const started = performance.now();
    const events = await runTurn(harness.runner, session.id, text);
    turnMs.push(performance.now() - started);
    if (events.some((event) => event.errorCode !== undefined)) failedTurns++;
    for (const request of model.requests.slice(from))
      if (!JSON.stringify(request.contents).includes(text)) callsWithoutCurrentRequest++;
  }
  const medianMs = quantile(turnMs, 0.5);
  return {
    prepareTurnsAhead,
    summarizerMs,
    turnMs,
    medianMs,
    slowTurns: turnMs.flatMap((ms, index) => (ms - medianMs > SLOW_MS ? [{ turn: index + 1, ms }] : [])),
    rejectedCalls: model.rejectedRequests.length,
    modelCalls: model.requests.length,
    summarizerCalls: summarizer.calls,
    compactions: compactions.length,
    preparedCompactions: compactions.filter((record) => record.prepared).length,
    waitedMs: compactions.map((record) => record.waitedMs),
    callsWithoutCurrentRequest,
    failedTurns,
    droppedPreparations: dropped,
  };
}

/** `prepareTurnsAhead` and summarizer latency of each run: the issue's figures, then a summarizer slower than a turn. */
export const BACKGROUND_VARIANTS: readonly { readonly prepareTurnsAhead: number; readonly summarizerMs: number }[] = [
  { prepareTurnsAhead: 0, summarizerMs: SUMMARIZER_MS },
  { prepareTurnsAhead: 1, summarizerMs: SUMMARIZER_MS },
  { prepareTurnsAhead: 2, summarizerMs: SUMMARIZER_MS },
  { prepareTurnsAhead: 3, summarizerMs: SUMMARIZER_MS },
  { prepareTurnsAhead: 0, summarizerMs: 1_000 },
  { prepareTurnsAhead: 1, summarizerMs: 1_000 },
  { prepareTurnsAhead: 2, summarizerMs: 1_000 },
];

/** The largest number of turns slower than the median by more than 300 ms that meets the issue's target. */
export const MAX_SLOW_TURNS = 1;

/** Runs every variant and prints the figures; `log` gets each line. */
export async function runBackgroundSection(
  variants: typeof BACKGROUND_VARIANTS,
  log: (line: string) => void,
): Promise<BackgroundRun[]> {
  const runs: BackgroundRun[] = [];
  for (const { prepareTurnsAhead, summarizerMs } of variants) {
    const run = await runBackgroundCompaction(prepareTurnsAhead, summarizerMs);
    runs.push(run);
    log(
      `prepareTurnsAhead ${prepareTurnsAhead}, summarizer ${summarizerMs} ms: median turn ${run.medianMs.toFixed(0)} ms; ` +
        `${run.slowTurns.length} turn(s) > median + ${SLOW_MS} ms` +
        (run.slowTurns.length > 0
          ? ` (${run.slowTurns.map((slow) => `#${slow.turn} ${slow.ms.toFixed(0)} ms`).join(', ')})`
          : '') +
        `; ${run.compactions} compactions (${run.preparedCompactions} prepared, waited ${run.waitedMs.map((ms) => ms.toFixed(0)).join('/')} ms); ` +
        `${run.summarizerCalls} summarizer calls (${run.droppedPreparations} preparations dropped); ${run.rejectedCalls} rejected of ${run.modelCalls} calls; ` +
        `${run.failedTurns} failed turns; current request missing from ${run.callsWithoutCurrentRequest} calls`,
    );
    log(`  turn ms: ${run.turnMs.map((ms) => ms.toFixed(0)).join(' ')}`);
  }
  return runs;
}
