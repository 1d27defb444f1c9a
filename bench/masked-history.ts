/**
 * The guard's own time per model call on a long, masked history (issue 27, point 6): one real
 * Runner session of 400 turns, each with one tool result of about 9 KB, under the default options
 * (masking for cost on, the recall tool declared) and a 2M-token window, so nothing is summarized
 * and most old results are placeholders. The masked view then covers hundreds of contents, and
 * what the guard does with it on every call is what this measures: the figure must not grow with
 * the history.
 */
import type { LlmRequest } from '@google/adk';
import { tiktokenTokenizer } from '../src/index.js';
import { tokenizerTokenCounter, type RequestTokenCounter } from '../src/testing/index.js';
import type { PayloadKind } from './lib/content.js';
import {
  APP_NAME,
  createBenchAgent,
  type BenchAgent,
  quietLogger,
  runPlannedTurn,
  TimedGuard,
  USER_ID,
  type TurnPlan,
} from './lib/harness.js';
import { summarize, type Summary } from './lib/stats.js';

const MODEL_NAME = 'scripted-masked';
const KINDS: readonly PayloadKind[] = ['json', 'logs', 'code', 'prose'];

export interface MaskedHistoryResult {
  readonly turns: number;
  readonly toolChars: number;
  /** Tokens of the whole stored history, unmasked (the guard's tokenizer over the session's contents). */
  readonly historyTokens: number;
  readonly contents: number;
  /** Contents sent as placeholders on the last measured call. */
  readonly maskedContents: number;
  readonly calls: number;
  /** The guard's own time per call, before + after callback (ms, wall clock). */
  readonly guardMs: Summary;
  readonly guardCpuMs: Summary;
  /**
   * The guard's own time on the first call of one more turn served by a second replica (a new guard and
   * Runner on the same store, nothing of the session in its memory): every placeholder and count built
   * again. Once per session and process; no target (docs/performance.md, "A replica's first call").
   */
  readonly coldReplicaMs: number;
  /** Contents that call sent as placeholders (those of the warm replica's last call, and any new ones). */
  readonly coldReplicaMasked: number;
}

/** Contents of `request` sent as placeholders. */
const maskedIn = (request: LlmRequest | undefined): number =>
  request?.contents.filter((content) => JSON.stringify(content).includes('context_guard_masked')).length ?? 0;

/** One more turn served by a second replica: a new guard and Runner on the first one's store; its first call timed. */
async function coldReplicaCall(
  warm: BenchAgent,
  sessionId: string,
  turnPlan: TurnPlan,
  counter: RequestTokenCounter,
): Promise<{ ms: number; masked: number }> {
  const guard = new TimedGuard({ modelWindows: { [MODEL_NAME]: 2_000_000 }, logger: quietLogger() }, () => undefined);
  const replica = createBenchAgent({
    window: 4_000_000,
    countTokens: counter,
    plugins: [guard],
    modelName: MODEL_NAME,
    sessionService: warm.sessionService,
  });
  guard.recording = true;
  const outcome = await runPlannedTurn(replica, sessionId, 'One more turn, on another replica.', turnPlan);
  const first = guard.samples[0];
  if (outcome.errors.length > 0 || outcome.thrown || !first) throw new Error("the second replica's turn failed");
  return { ms: first.beforeMs + first.afterMs, masked: maskedIn(first.request) };
}

function plan(turn: number, toolChars: number): TurnPlan {
  const kind = KINDS[turn % KINDS.length] as PayloadKind;
  return { tools: [{ kind, size: toolChars, seed: 7_000 + turn }], answerChars: 300, seed: turn };
}

export async function runMaskedHistory(
  options: {
    turns?: number;
    measuredTurns?: number;
    toolChars?: number;
    log?: (line: string) => void;
    /** Called around the measured turns (for profiling). */
    aroundMeasured?: { before(): Promise<void> | void; after(): Promise<void> | void };
  } = {},
): Promise<MaskedHistoryResult> {
  const turns = options.turns ?? 400;
  const measuredTurns = options.measuredTurns ?? 30;
  const toolChars = options.toolChars ?? 9_000;
  const counter = tokenizerTokenCounter(tiktokenTokenizer);
  const guard = new TimedGuard({ modelWindows: { [MODEL_NAME]: 2_000_000 }, logger: quietLogger() }, () => undefined);
  const bench = createBenchAgent({ window: 4_000_000, countTokens: counter, plugins: [guard], modelName: MODEL_NAME });
  const session = await bench.sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
  const runTurn = async (turn: number): Promise<void> => {
    const outcome = await runPlannedTurn(
      bench,
      session.id,
      `Turn ${turn}: please check and report.`,
      plan(turn, toolChars),
    );
    if (outcome.errors.length > 0 || outcome.thrown)
      throw new Error(`turn ${turn} failed: ${outcome.errors.join(', ')} ${outcome.thrown ?? ''}`);
  };
  for (let turn = 0; turn < turns - measuredTurns; turn++) await runTurn(turn);
  await options.aroundMeasured?.before();
  guard.recording = true;
  for (let turn = turns - measuredTurns; turn < turns; turn++) await runTurn(turn);
  guard.recording = false;
  await options.aroundMeasured?.after();
  const cold = await coldReplicaCall(bench, session.id, plan(turns, toolChars), counter);
  const stored = await bench.sessionService.getSession({ appName: APP_NAME, userId: USER_ID, sessionId: session.id });
  const history = (stored?.events ?? []).flatMap((event) => (event.content ? [event.content] : []));
  const historyTokens = counter({ contents: history, config: {} } as unknown as LlmRequest);
  const last = guard.samples[guard.samples.length - 1];
  const maskedContents = maskedIn(last?.request);
  const result: MaskedHistoryResult = {
    turns,
    toolChars,
    historyTokens,
    contents: history.length,
    maskedContents,
    calls: guard.samples.length,
    guardMs: summarize(guard.samples.map((s) => s.beforeMs + s.afterMs)),
    guardCpuMs: summarize(guard.samples.map((s) => s.cpuMs)),
    coldReplicaMs: cold.ms,
    coldReplicaMasked: cold.masked,
  };
  options.log?.(
    `  ${turns} turns of ${toolChars} characters: ${historyTokens} tokens of history, ${result.contents} contents, ` +
      `${maskedContents} masked; guard median ${result.guardMs.median.toFixed(3)} ms, p95 ${result.guardMs.p95.toFixed(3)} ms; ` +
      `a second replica's first call ${result.coldReplicaMs.toFixed(1)} ms (${cold.masked} masked)`,
  );
  return result;
}
