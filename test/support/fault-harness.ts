/**
 * One guarded agent on a real Runner for fault and bad-input tests: a strict
 * scripted provider, a summarizer that is an ADK `BaseLlm` (so the guard's
 * `llmSummarizer` adapter runs), a capturing logger, the compaction records,
 * and helpers to read the session's guard state and check every request sent.
 */
import {
  FunctionTool,
  InMemorySessionService,
  LlmAgent,
  Runner,
  type BaseArtifactService,
  type BasePlugin,
  type BaseTool,
  type Event,
  type SingleBeforeModelCallback,
} from '@google/adk';
import type { Content, Part } from '@google/genai';
import { ContextGuard, type CompactionRecord, type ContextGuardOptions } from '../../src/index.js';
import {
  decodeSummaryRecord,
  decodeUsageRecord,
  stateKeysFor,
  type SummaryRecord,
  type UsageRecord,
} from '../../src/internal.js';
import {
  ScriptedLlm,
  type ModelScript,
  type RecordedRequest,
  type RequestTokenCounter,
  type ScriptCall,
  logText,
} from '../../src/testing/index.js';
import { CapturingLogger, OVER_LIMIT_WARNING } from '../../src/testing/index.js';
import { callThenAnswer } from './call-then-answer.js';
import { proportionalCounter } from './proportional-counter.js';
import { pairingViolations, startViolations } from './request-invariants.js';
import { ScriptedSummarizerLlm } from '../../src/testing/index.js';

export const FAULT_APP = 'guard-faults';
export const FAULT_USER = 'user-f';

export interface FaultHarnessOptions {
  readonly agentName?: string;
  /** The scripted model's name. @default 'scripted-model' */
  readonly model?: string;
  /** The model's window (and the guard's `contextWindow`). @default 8,000 */
  readonly window?: number;
  /** Real tokens per estimated token (see proportional-counter.ts), when `countTokens` is not given. @default 1.3 */
  readonly ratio?: number;
  readonly countTokens?: RequestTokenCounter;
  /** The model's behaviour. @default calls `fetch` once per user turn with `toolChars`, then answers */
  readonly script?: ModelScript;
  /** Characters the default script asks `fetch` for. @default 3,000 */
  readonly toolChars?: number;
  /** What `fetch` returns (its input is `{ size }`). @default `{ logs: logText(size, size) }` */
  readonly toolResult?: (size: number) => unknown;
  readonly extraTools?: BaseTool[];
  readonly instruction?: string;
  readonly reportUsage?: boolean;
  readonly fail?: (call: ScriptCall) => Error | undefined;
  /** Guard options over the defaults (window, summarizer, logger, onCompaction, masking off). */
  readonly guard?: Partial<ContextGuardOptions>;
  /** Initial session state (to pre-seed corrupted or foreign guard records). */
  readonly state?: Record<string, unknown>;
  /** The Runner's artifact service. @default none */
  readonly artifactService?: BaseArtifactService;
  /** Plugins registered before the guard. */
  readonly plugins?: BasePlugin[];
  /** The guard's logger (to share it with a tool). @default a new one */
  readonly logger?: CapturingLogger;
  /** The agent's own before-model callback (ADK runs it after the plugins'). */
  readonly beforeModelCallback?: SingleBeforeModelCallback;
}

export interface FaultHarness {
  readonly runner: Runner;
  readonly model: ScriptedLlm;
  readonly guard: ContextGuard;
  readonly summarizer: ScriptedSummarizerLlm;
  readonly logger: CapturingLogger;
  readonly records: CompactionRecord[];
  readonly sessionService: InMemorySessionService;
  readonly sessionId: string;
  readonly window: number;
  readonly agentName: string;
  /** Runs one user turn; never throws (a thrown turn is returned as `thrown`). */
  turn(message: string | Content): Promise<{ events: Event[]; errorCodes: string[]; thrown?: string }>;
  state(): Promise<Record<string, unknown>>;
  usage(): Promise<UsageRecord>;
  summary(): Promise<SummaryRecord | undefined>;
  /** Shape problems of every request the model received (pairing, start). */
  shapeProblems(): string[];
  /** Requests over the model's window. */
  overWindow(): RecordedRequest[];
  /** Over-hard-limit warnings the guard logged. */
  overLimitWarnings(): number;
  /** Runs turns (`Turn n: …`) until the first compaction, at most `maxTurns`; returns the turns run. */
  turnsUntilCompaction(maxTurns?: number): Promise<number>;
}

/** A tool-then-answer script: on a user turn it calls `fetch` once, then answers with text. */
export function fetchThenAnswer(toolChars: number): ModelScript {
  return callThenAnswer({
    call: () => (toolChars > 0 ? { name: 'fetch', args: { size: toolChars } } : undefined),
    answer: ({ index }) => `Answer ${index}: ${logText(120, index)}`,
  });
}

export function fetchTool(result: (size: number) => unknown = (size) => ({ logs: logText(size, size) })): FunctionTool {
  return new FunctionTool({
    name: 'fetch',
    description: 'Fetches a document of the requested size.',
    parameters: { type: 'OBJECT', properties: { size: { type: 'INTEGER' } }, required: ['size'] } as never,
    execute: (input: unknown) => result((input as { size: number }).size),
  });
}

export async function faultHarness(options: FaultHarnessOptions = {}): Promise<FaultHarness> {
  const window = options.window ?? 8_000;
  const agentName = options.agentName ?? 'worker';
  const logger = options.logger ?? new CapturingLogger();
  const records: CompactionRecord[] = [];
  const summarizer = new ScriptedSummarizerLlm();
  const model = new ScriptedLlm({
    ...(options.model ? { model: options.model } : {}),
    window,
    countTokens: options.countTokens ?? proportionalCounter(options.ratio ?? 1.3),
    script: options.script ?? fetchThenAnswer(options.toolChars ?? 3_000),
    reportUsage: options.reportUsage ?? true,
    ...(options.fail ? { fail: options.fail } : {}),
  });
  const guard = new ContextGuard({
    contextWindow: window,
    summarizer,
    summarizerTimeoutMs: 200,
    modelWindows: { 'scripted-summarizer': 32_000 },
    logger,
    onCompaction: (record) => void records.push(record),
    // The faults are those of summaries made in the call and their state: masking alone would make room in
    // these sessions, and background preparation has its own fault tests (background-compaction.test.ts).
    maskKeepRecent: 0,
    prepareTurnsAhead: 0,
    ...options.guard,
  });
  const agent = new LlmAgent({
    name: agentName,
    model,
    instruction: options.instruction ?? 'You analyse documents.',
    tools: [fetchTool(options.toolResult), ...(options.extraTools ?? [])],
    ...(options.beforeModelCallback ? { beforeModelCallback: options.beforeModelCallback } : {}),
  });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({
    appName: FAULT_APP,
    agent,
    sessionService,
    plugins: [...(options.plugins ?? []), guard],
    ...(options.artifactService ? { artifactService: options.artifactService } : {}),
  });
  const session = await sessionService.createSession({
    appName: FAULT_APP,
    userId: FAULT_USER,
    ...(options.state ? { state: options.state } : {}),
  });
  const keys = stateKeysFor(agentName);
  const state = async (): Promise<Record<string, unknown>> =>
    (await sessionService.getSession({ appName: FAULT_APP, userId: FAULT_USER, sessionId: session.id }))?.state ?? {};
  const turn = async (
    message: string | Content,
  ): Promise<{ events: Event[]; errorCodes: string[]; thrown?: string }> => {
    const newMessage: Content = typeof message === 'string' ? { role: 'user', parts: [{ text: message }] } : message;
    const events: Event[] = [];
    try {
      for await (const event of runner.runAsync({ userId: FAULT_USER, sessionId: session.id, newMessage }))
        events.push(event);
      return { events, errorCodes: events.flatMap((event) => (event.errorCode ? [`${event.errorCode}`] : [])) };
    } catch (error) {
      return { events, errorCodes: [], thrown: error instanceof Error ? error.message : String(error) };
    }
  };
  return {
    runner,
    model,
    guard,
    summarizer,
    logger,
    records,
    sessionService,
    sessionId: session.id,
    window,
    agentName,
    turn,
    state,
    usage: async () => decodeUsageRecord((await state())[keys.usage]),
    summary: async () => decodeSummaryRecord((await state())[keys.summary]),
    shapeProblems: () =>
      model.requests.flatMap((request) =>
        [...pairingViolations(request.contents), ...startViolations(request.contents)].map(
          (problem) => `call ${request.index}: ${problem}`,
        ),
      ),
    overWindow: () => model.requests.filter((request) => request.promptTokens > window),
    overLimitWarnings: () => logger.matching(OVER_LIMIT_WARNING).length,
    async turnsUntilCompaction(maxTurns = 15) {
      let turns = 0;
      while (records.length === 0 && turns < maxTurns) {
        turns++;
        const outcome = await turn(`Turn ${turns}: fetch the document and tell me what changed.`);
        if (outcome.thrown) throw new Error(`turn ${turns} threw: ${outcome.thrown}`);
      }
      return turns;
    },
  };
}

/** All text parts of the requests the model received, for searching. */
export function sentTexts(model: ScriptedLlm): string[] {
  return model.requests
    .flatMap((request) => request.contents.flatMap((content) => content.parts ?? []))
    .flatMap((part: Part) => {
      const texts: string[] = [];
      if (typeof part.text === 'string') texts.push(part.text);
      if (part.functionResponse) texts.push(JSON.stringify(part.functionResponse.response ?? {}));
      return texts;
    });
}
