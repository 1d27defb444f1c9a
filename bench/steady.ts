/**
 * Steady state, compaction step and heap, on one real Runner session grown to
 * 10k, 100k, 200k and 1M tokens of mixed content.
 *
 * At each checkpoint the session runs a block of measured turns whose appends
 * are small (a short question, sometimes a 1.2 KB tool result, a short answer),
 * with a 2M-token window so the guard never compacts. Per model call it records
 * the guard's own callback time, ADK's `TokenBasedContextCompactor.shouldCompact`
 * time on the same session, the guard's heuristic estimate against the ground
 * truth, and what was appended since the previous call. After the 1M checkpoint
 * the window is lowered to 1M so the next call compacts (instant summarizer),
 * and that call's time minus the summarizer's is the compaction step overhead.
 */
import { LlmSummarizer, TokenBasedContextCompactor, type InvocationContext } from '@google/adk';
import type { Content } from '@google/genai';
import { tiktokenTokenizer, type CompactionRecord } from '../src/index.js';
import {
  decodeUsageRecord,
  stateKeysFor,
  buildSummaryPrompt,
  renderContent,
  ContentMeasureCache,
  fingerprint,
  mapContentsToEvents,
} from '../src/internal.js';
import { ratioTokenCounter, tokenizerTokenCounter } from '../src/testing/index.js';
import { proseText } from '../src/testing/index.js';
import { PAYLOAD_KINDS, type PayloadKind } from './lib/content.js';
import { exactO200kTokenizer } from './lib/ground-truth.js';
import {
  AGENT_NAME,
  APP_NAME,
  USER_ID,
  countingTruth,
  createBenchAgent,
  instantSummarizer,
  quietLogger,
  runPlannedTurn,
  TimedCompactor,
  TimedGuard,
  type BenchAgent,
  type CallSample,
  type TurnPlan,
} from './lib/harness.js';
import { settledHeap } from './lib/heap.js';
import { round, summarize, type Summary } from './lib/stats.js';

export const MODEL_NAME = 'scripted-bench';

export interface CheckpointResult {
  readonly target: number;
  /** Ground-truth prompt tokens at the first and last measured call. */
  readonly historyTokensStart: number;
  readonly historyTokensEnd: number;
  readonly contents: number;
  readonly historyChars: number;
  readonly calls: number;
  /** Guard: before + after callback, per call (ms, wall clock). */
  readonly guardMs: Summary;
  /** The same in process CPU time (ms). */
  readonly guardCpuMs: Summary;
  readonly guardBeforeMs: Summary;
  readonly guardAfterMs: Summary;
  /** ADK TokenBasedContextCompactor.shouldCompact, in the loop (usage metadata present), per call (ms). */
  readonly adkShouldCompactMs: Summary;
  /** The same on the same events with usage metadata removed (its chars/4 estimate path), ms. */
  readonly adkShouldCompactNoUsageMs: Summary;
  /** Ground-truth tokens appended between consecutive measured calls. */
  readonly appendedTokens: Summary;
  /** Guard heuristic estimate (sentEstimate, before calibration) / ground truth, per call. */
  readonly estimateRatio: Summary;
  /** Guard calibrated estimate / ground truth, per call. */
  readonly calibratedRatio: Summary;
  /** chars/4 over the same request (ADK's fallback heuristic) / ground truth, last call. */
  readonly charsOver4Ratio: number;
  /** Heap retained by the measure cache for one session of this history (bytes). */
  readonly heapPerSessionBytes: number;
  readonly heapPerContentBytes: number;
  /** An empty measure cache measuring the whole history (first call after a restart), ms. */
  readonly coldMeasureMs: number;
}

export interface CompactionStepResult {
  readonly historyTokens: number;
  readonly contents: number;
  /** Guard callback time of the compacting call (ms), summarizer included. */
  readonly callbackMs: number;
  /** Process CPU time of the compacting call's callbacks (ms). */
  readonly callbackCpuMs: number;
  readonly summarizerMs: number;
  /** callbackMs - summarizerMs. */
  readonly overheadMs: number;
  readonly summarizerPromptChars: number;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly coveredContents: number;
  /** Steady-state calls after the compaction (summary applied), before + after (ms). */
  readonly afterCompactionGuardMs: Summary;
  /** The compaction's main steps replayed offline on the same history (ms each), to say where the time goes. */
  readonly breakdown: CompactionBreakdown;
}

export interface CompactionBreakdown {
  readonly contents: number;
  /** `buildSummaryPrompt` with the guard's tokenizer: rendering every content, counting the joined conversation. */
  readonly summaryPromptMs: number;
  /** The same with a free tokenizer (characters / 4): rendering and joining only. */
  readonly summaryPromptNoTokenizerMs: number;
  /** `renderContent` of every content alone (it serialises each tool result whole before cutting it). */
  readonly renderMs: number;
  /** `mapContentsToEvents` for the audit record (fingerprints every stored event). */
  readonly mapContentsToEventsMs: number;
  /** `fingerprint` of every content, for scale (the guard has these cached). */
  readonly fingerprintAllMs: number;
}

function timed(fn: () => unknown): number {
  const started = performance.now();
  fn();
  return performance.now() - started;
}

/** Replays the compaction's heavy steps on `contents` and the session's `events`. */
export function compactionBreakdown(
  contents: readonly Content[],
  events: Parameters<typeof mapContentsToEvents>[0],
): CompactionBreakdown {
  const prompt = (tokenizer: { name: string; count(text: string): number }) =>
    buildSummaryPrompt({
      contents,
      currentRequest: 'Please check and report.',
      maxPromptTokens: 800_000,
      maxSummaryTokens: 4_096,
      tokenizer,
    });
  let prints: string[] = [];
  const fingerprintAllMs = timed(() => (prints = contents.map((content) => fingerprint(content))));
  return {
    contents: contents.length,
    summaryPromptMs: round(timed(() => prompt(tiktokenTokenizer))),
    summaryPromptNoTokenizerMs: round(
      timed(() => prompt({ name: 'chars/4', count: (text) => Math.ceil(text.length / 4) })),
    ),
    renderMs: round(timed(() => contents.map((content) => renderContent(content)))),
    mapContentsToEventsMs: round(timed(() => mapContentsToEvents(events, contents, prints))),
    fingerprintAllMs: round(fingerprintAllMs),
  };
}

export interface SteadyResult {
  readonly groundTruth: string;
  readonly checkpoints: CheckpointResult[];
  readonly compaction: CompactionStepResult | undefined;
  readonly growthTurns: number;
  readonly elapsedMs: number;
}

const MEASURED_TURNS = 30;
/** Growth tool outputs, in characters; rotating kinds and sizes (a realistic spread, up to 64 KB). */
const GROWTH_SIZES = [6_000, 24_000, 12_000, 48_000, 8_000, 64_000, 16_000, 32_000];
const CHARS_PER_TOKEN: Record<PayloadKind, number> = { json: 2.6, logs: 2.8, code: 3.6, prose: 5.2, cjk: 0.8 };

function userText(turn: number): string {
  return `Turn ${turn}: ${proseText(90 + (turn % 5) * 20, turn * 7 + 3)} Please check and report.`;
}

/** A growth turn: one tool call whose payload is sized not to overshoot `remaining` tokens by much. */
function growthPlan(turn: number, remaining: number): TurnPlan {
  const kind = PAYLOAD_KINDS[turn % PAYLOAD_KINDS.length] as PayloadKind;
  const wanted = GROWTH_SIZES[turn % GROWTH_SIZES.length] as number;
  const size = Math.max(1_000, Math.min(wanted, Math.floor(remaining * CHARS_PER_TOKEN[kind])));
  return {
    tools: [{ kind, size: kind === 'cjk' ? Math.ceil(size / 3) : size, seed: 1_000 + turn }],
    answerChars: 600,
    seed: turn,
  };
}

/** A measured turn: small appends only, a tool call every third turn. */
function measuredPlan(turn: number): TurnPlan {
  const kind = PAYLOAD_KINDS[turn % PAYLOAD_KINDS.length] as PayloadKind;
  const tools = turn % 3 === 0 ? [{ kind, size: kind === 'cjk' ? 400 : 1_200, seed: 50_000 + turn }] : [];
  return { tools, answerChars: 300, seed: 90_000 + turn };
}

function historyChars(contents: readonly Content[]): number {
  let chars = 0;
  for (const content of contents) chars += JSON.stringify(content).length;
  return chars;
}

/**
 * Heap retained by a ContentMeasureCache per session of these contents: `sessions` distinct sessions of
 * distinct contents (each content gets one extra small part, so its fingerprint differs), contents
 * allocated before the first heap reading, so only what the cache keeps is counted (fingerprints,
 * token counts and the fingerprint memo's entries).
 */
export function heapPerCachedSession(
  contents: readonly Content[],
  // Enough sessions for about 40,000 cached contents in all: a short history alone is below the noise of a heap reading.
  sessions = Math.min(256, Math.max(16, Math.ceil(40_000 / Math.max(1, contents.length)))),
): { perSession: number; perContent: number } {
  const variants = (k: number): Content[] =>
    contents.map((content) => ({ ...content, parts: [...(content.parts ?? []), { text: `s${k}` }] }));
  const all = Array.from({ length: sessions }, (_, k) => variants(k));
  // Warm the code paths and the tokenizer's piece memo on the same texts outside the measured window.
  new ContentMeasureCache().measure('warm', variants(-1), tiktokenTokenizer);
  const cache = new ContentMeasureCache();
  const before = settledHeap();
  for (let k = 0; k < sessions; k++)
    cache.measure(`session-${k}\u0000${AGENT_NAME}`, all[k] as Content[], tiktokenTokenizer);
  const after = settledHeap();
  if (cache.sessionCount !== sessions || all.length !== sessions)
    throw new Error('heap measurement: unexpected session count');
  const perSession = Math.max(0, after - before) / sessions;
  return { perSession, perContent: perSession / Math.max(1, contents.length) };
}

/** Time for an empty measure cache to measure a whole history (the first call after a restart; the tokenizer's piece memo is warm). */
export function coldMeasureMs(contents: readonly Content[]): number {
  const copy = structuredClone(contents) as Content[];
  const cache = new ContentMeasureCache();
  const started = performance.now();
  cache.measure(`cold\u0000${AGENT_NAME}`, copy, tiktokenTokenizer);
  return performance.now() - started;
}

function adkNoUsageTimes(context: InvocationContext, compactor: TokenBasedContextCompactor, repeats: number): number[] {
  const events = context.session.events.map((event) => ({ ...event, usageMetadata: undefined }));
  const stripped = Object.create(context, { session: { value: { ...context.session, events } } }) as InvocationContext;
  const times: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const started = performance.now();
    void compactor.shouldCompact(stripped); // synchronous in ADK 2.0.0; typed `boolean | Promise<boolean>`
    times.push(performance.now() - started);
  }
  return times;
}

export async function runSteadyState(
  options: {
    checkpoints?: readonly number[];
    measuredTurns?: number;
    compaction?: boolean;
    log?: (line: string) => void;
    /** Called around the compacting turn (for profiling). */
    aroundCompaction?: { before(): Promise<void> | void; after(): Promise<void> | void };
  } = {},
): Promise<SteadyResult> {
  const started = performance.now();
  const log = options.log ?? (() => undefined);
  const checkpoints = options.checkpoints ?? [10_000, 100_000, 200_000, 1_000_000];
  const truthTokenizer = exactO200kTokenizer();
  const truth = countingTruth(tokenizerTokenCounter(truthTokenizer));
  const charsOver4 = ratioTokenCounter(1);
  const windows: Record<string, number> = { [MODEL_NAME]: 2_000_000 };
  const summarizer = instantSummarizer();
  const records: CompactionRecord[] = [];
  const guard = new TimedGuard(
    {
      modelWindows: windows,
      summarizer,
      summarizerContextWindow: 1_000_000,
      // The compaction step times a summary, the costliest step; masking (no model call) is timed by the simulator's runs.
      maskKeepRecent: 0,
      logger: quietLogger(),
      onCompaction: (record) => {
        records.push(record);
      },
    },
    truth.of,
  );
  const adk = new TokenBasedContextCompactor({
    tokenThreshold: 1_000_000_000,
    eventRetentionSize: 10,
    summarizer: new LlmSummarizer({ llm: undefined as never }),
  });
  // ADK's compactor is timed beside the guard on the same session, not installed on the agent: a
  // compactor the guard does not know as append-only puts its measure on the exact comparison
  // (adk/hooks/history-editors.ts), and this bench measures the guard as users run it, alone.
  const compactor = new TimedCompactor(adk);
  const bench: BenchAgent = createBenchAgent({
    window: 4_000_000,
    countTokens: truth.count,
    plugins: [guard],
    modelName: MODEL_NAME,
  });
  const lastInvocation = (): InvocationContext | undefined => guard.samples.at(-1)?.context.invocationContext;
  const session = await bench.sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
  const results: CheckpointResult[] = [];
  let turn = 0;
  let growthTurns = 0;
  const historyTokens = (): number => guard.last?.promptTokens ?? 0;

  const runTurn = async (plan: TurnPlan): Promise<void> => {
    turn++;
    const outcome = await runPlannedTurn(bench, session.id, userText(turn), plan);
    if (outcome.errors.length > 0 || outcome.thrown)
      throw new Error(`turn ${turn} failed: ${outcome.errors.join(', ')} ${outcome.thrown ?? ''}`);
  };

  for (const target of checkpoints) {
    // Grow to just under the checkpoint, then measure.
    while (historyTokens() < target * 0.98) {
      await runTurn(growthPlan(turn, target - historyTokens()));
      growthTurns++;
    }
    guard.samples.length = 0;
    compactor.samples.length = 0;
    guard.recording = true;
    compactor.recording = true;
    for (let i = 0; i < (options.measuredTurns ?? MEASURED_TURNS); i++) {
      const before = guard.samples.length;
      await runTurn(measuredPlan(turn));
      // As ADK's request processor would before each of the turn's model calls, on the session as it now stands.
      const invocation = lastInvocation();
      if (invocation)
        for (let call = before; call < guard.samples.length; call++) await compactor.shouldCompact(invocation);
    }
    guard.recording = false;
    compactor.recording = false;
    const samples: CallSample[] = guard.samples.slice();
    const last = samples[samples.length - 1];
    if (!last) throw new Error('no samples');
    const appended: number[] = [];
    for (let i = 1; i < samples.length; i++)
      appended.push((samples[i]?.promptTokens ?? 0) - (samples[i - 1]?.promptTokens ?? 0));
    const estimateRatio = samples.map((s) => (s.usage.sentEstimate ?? Number.NaN) / (s.promptTokens ?? Number.NaN));
    const calibratedRatio = samples.map((s) => (s.usage.lastCalibrated ?? Number.NaN) / (s.promptTokens ?? Number.NaN));
    const context = compactor.lastContext;
    const noUsage = context ? adkNoUsageTimes(context, adk, 10) : [];
    const heap = heapPerCachedSession(last.request.contents);
    const cold = coldMeasureMs(last.request.contents);
    const result: CheckpointResult = {
      target,
      historyTokensStart: samples[0]?.promptTokens ?? 0,
      historyTokensEnd: last.promptTokens ?? 0,
      contents: last.contents,
      historyChars: historyChars(last.request.contents),
      calls: samples.length,
      guardMs: summarize(samples.map((s) => s.beforeMs + s.afterMs)),
      guardCpuMs: summarize(samples.map((s) => s.cpuMs)),
      guardBeforeMs: summarize(samples.map((s) => s.beforeMs)),
      guardAfterMs: summarize(samples.map((s) => s.afterMs)),
      adkShouldCompactMs: summarize(compactor.samples),
      adkShouldCompactNoUsageMs: summarize(noUsage),
      appendedTokens: summarize(appended),
      estimateRatio: summarize(estimateRatio),
      calibratedRatio: summarize(calibratedRatio),
      charsOver4Ratio: round(charsOver4(last.request) / (last.promptTokens ?? Number.NaN), 4),
      heapPerSessionBytes: Math.round(heap.perSession),
      heapPerContentBytes: Math.round(heap.perContent),
      coldMeasureMs: round(cold),
    };
    results.push(result);
    log(
      `  checkpoint ${target}: history ${result.historyTokensStart}..${result.historyTokensEnd} tokens, ${result.contents} contents, ` +
        `guard median ${result.guardMs.median.toFixed(3)} ms p95 ${result.guardMs.p95.toFixed(3)} ms, adk median ${result.adkShouldCompactMs.median.toFixed(3)} ms`,
    );
  }

  // Compaction step at the last checkpoint: lower the window below the history; the next call compacts.
  let compaction: CompactionStepResult | undefined;
  const finalTokens = historyTokens();
  if (options.compaction !== false && finalTokens > 100_000) {
    windows[MODEL_NAME] = Math.max(50_000, Math.floor(finalTokens * 0.98));
    guard.samples.length = 0;
    guard.recording = true;
    const compactionsBefore = decodeUsageRecord(
      guard.last?.context.state.get(stateKeysFor(AGENT_NAME).usage),
    ).compactions;
    const preContents = guard.last?.request.contents ?? [];
    const preEvents = guard.last?.context.invocationContext.session.events.slice() ?? [];
    const summarizerCallsBefore = summarizer.calls.length;
    await options.aroundCompaction?.before();
    // Start the compacting turn with a clean heap (and concurrent sweeping done): the call then pays for
    // its own garbage, not for the growth phase's.
    settledHeap();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await runTurn(measuredPlan(turn));
    await options.aroundCompaction?.after();
    const compactingCall = guard.samples[0];
    const summarizerCall = summarizer.calls[summarizerCallsBefore];
    const record = records[records.length - 1];
    if (!compactingCall || !summarizerCall || !record || compactingCall.usage.compactions !== compactionsBefore + 1) {
      throw new Error('compaction step: the guard did not compact on the first call after the window was lowered');
    }
    guard.samples.length = 0;
    for (let i = 0; i < 10; i++) await runTurn(measuredPlan(turn));
    guard.recording = false;
    compaction = {
      historyTokens: finalTokens,
      contents: compactingCall.contents,
      callbackMs: round(compactingCall.beforeMs),
      callbackCpuMs: round(compactingCall.cpuMs),
      summarizerMs: round(summarizerCall.ms, 4),
      overheadMs: round(compactingCall.beforeMs - summarizerCall.ms),
      summarizerPromptChars: summarizerCall.promptChars,
      tokensBefore: record.tokensBefore,
      tokensAfter: record.tokensAfter,
      coveredContents: record.coveredContents.to - record.coveredContents.from,
      afterCompactionGuardMs: summarize(guard.samples.map((s) => s.beforeMs + s.afterMs)),
      breakdown: compactionBreakdown(preContents, preEvents),
    };
    log(
      `  compaction at ${finalTokens} tokens: callback ${compaction.callbackMs} ms, summarizer ${compaction.summarizerMs} ms`,
    );
  }
  return {
    groundTruth: truthTokenizer.name,
    checkpoints: results,
    compaction,
    growthTurns,
    elapsedMs: performance.now() - started,
  };
}
