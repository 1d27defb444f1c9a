/**
 * The benchmark's ADK setup: a real Runner, LlmAgent, InMemorySessionService and
 * real FunctionTools returning realistic payloads, a strict ScriptedLlm whose
 * turns the benchmark plans (how many tool calls, which payloads), and timed
 * wrappers around the two things being compared:
 *
 * - `TimedGuard`: ContextGuard with its `beforeModelCallback` and
 *   `afterModelCallback` timed around `super` (the plugin's own time only);
 * - `TimedCompactor`: ADK's `TokenBasedContextCompactor` with `shouldCompact`
 *   timed, registered on the same agent so it sees the same session.
 */
import {
  FunctionTool,
  InMemorySessionService,
  LlmAgent,
  Runner,
  type BaseContextCompactor,
  type BasePlugin,
  type Context,
  type InvocationContext,
  type LlmRequest,
  type LlmResponse,
} from '@google/adk';
import type { Content, Schema } from '@google/genai';
import { ContextGuard, type ContextGuardOptions, type GuardLogger, type Summarizer } from '../../src/index.js';
import { decodeUsageRecord, stateKeysFor, type UsageRecord } from '../../src/internal.js';
import { proseText, ScriptedLlm, type RequestTokenCounter } from '../../src/testing/index.js';
import { jsonRecords, textPayload, type PayloadKind } from './content.js';

export const APP_NAME = 'context-guard-bench';
export const USER_ID = 'bench-user';
export const AGENT_NAME = 'worker';

/** A logger that keeps messages instead of printing them (the guard logs every compaction). */
export function quietLogger(): GuardLogger & { readonly lines: string[] } {
  const lines: string[] = [];
  const keep =
    (level: string) =>
    (...args: unknown[]) => {
      lines.push(`${level} ${args.map((arg) => (arg instanceof Error ? arg.message : String(arg))).join(' ')}`);
    };
  return { lines, debug: () => undefined, info: keep('info'), warn: keep('warn'), error: keep('error') };
}

const SIZE_SEED_SCHEMA = {
  type: 'OBJECT',
  properties: { size: { type: 'INTEGER', description: 'Approximate size in characters.' }, seed: { type: 'INTEGER' } },
  required: ['size', 'seed'],
} as unknown as Schema;

function sizeSeed(input: unknown): { size: number; seed: number } {
  const { size, seed } = input as { size?: number; seed?: number };
  return { size: Math.max(16, Number(size ?? 1_000)), seed: Number(seed ?? 1) };
}

/** A tool that returns a payload of about `size` characters made from `seed` (and the rest of its input). */
function payloadTool(
  name: string,
  description: string,
  payload: (size: number, seed: number, input: unknown) => unknown,
  parameters: Schema = SIZE_SEED_SCHEMA,
): FunctionTool {
  return new FunctionTool({
    name,
    description,
    parameters,
    execute: (input: unknown) => {
      const { size, seed } = sizeSeed(input);
      return payload(size, seed, input);
    },
  });
}

/** The four tools, one per payload family: JSON records, logs, source files, documents (English or CJK). */
export function benchTools(): FunctionTool[] {
  return [
    payloadTool('search_orders', 'Searches orders and returns matching records as JSON.', (size, seed) =>
      jsonRecords(size, seed),
    ),
    payloadTool('fetch_logs', 'Returns recent server logs.', (size, seed) => ({
      service: 'orders',
      lines: textPayload('logs', size, seed),
    })),
    payloadTool('read_file', 'Reads a source file from the repository.', (size, seed) => ({
      path: `src/orders/module-${seed % 97}.ts`,
      content: textPayload('code', size, seed),
    })),
    payloadTool(
      'fetch_doc',
      'Fetches a design document (English) or a support ticket thread (Chinese).',
      (size, seed, input) => {
        const lang = (input as { lang?: string }).lang === 'zh' ? 'zh' : 'en';
        return { title: `Document ${seed}`, lang, body: textPayload(lang === 'zh' ? 'cjk' : 'prose', size, seed) };
      },
      {
        type: 'OBJECT',
        properties: {
          size: { type: 'INTEGER' },
          seed: { type: 'INTEGER' },
          lang: { type: 'STRING', enum: ['en', 'zh'] },
        },
        required: ['size', 'seed'],
      } as unknown as Schema,
    ),
  ];
}

/** One planned tool call. */
export interface ToolCallPlan {
  readonly kind: PayloadKind;
  readonly size: number;
  readonly seed: number;
}

export function toolCallFor(plan: ToolCallPlan): { name: string; args: Record<string, unknown> } {
  switch (plan.kind) {
    case 'json':
      return { name: 'search_orders', args: { size: plan.size, seed: plan.seed } };
    case 'logs':
      return { name: 'fetch_logs', args: { size: plan.size, seed: plan.seed } };
    case 'code':
      return { name: 'read_file', args: { size: plan.size, seed: plan.seed } };
    case 'prose':
      return { name: 'fetch_doc', args: { size: plan.size, seed: plan.seed, lang: 'en' } };
    case 'cjk':
      return { name: 'fetch_doc', args: { size: plan.size, seed: plan.seed, lang: 'zh' } };
  }
}

/** What the scripted model does in the current turn: these tool calls in order, then an answer. */
export interface TurnPlan {
  readonly tools: readonly ToolCallPlan[];
  readonly answerChars: number;
  readonly seed: number;
}

/**
 * The model side of a planned turn. The step counter is the benchmark's, not
 * derived from the contents, so a compaction in the middle of a tool chain
 * (the guard may drop the user's message from the request) does not restart it.
 */
export class TurnDriver {
  private plan: TurnPlan = { tools: [], answerChars: 200, seed: 1 };
  private step = 0;

  start(plan: TurnPlan): void {
    this.plan = plan;
    this.step = 0;
  }

  respond(): Content {
    const step = this.step++;
    const call = this.plan.tools[step];
    if (call) return { role: 'model', parts: [{ functionCall: toolCallFor(call) }] };
    return {
      role: 'model',
      parts: [{ text: `Findings: ${proseText(this.plan.answerChars, this.plan.seed * 31 + step)}` }],
    };
  }
}

export interface CallSample {
  /** Plugin time in beforeModelCallback, ms. */
  readonly beforeMs: number;
  /** Plugin time in afterModelCallback, ms. */
  readonly afterMs: number;
  /** Process CPU time (user + system) over both callbacks, ms: less sensitive to other processes on a loaded machine. */
  readonly cpuMs: number;
  /** Ground-truth prompt tokens of the request the model received. */
  readonly promptTokens: number | undefined;
  /** The guard's usage record right after beforeModelCallback (sentEstimate, lastCalibrated...). */
  readonly usage: UsageRecord;
  readonly contents: number;
  readonly request: LlmRequest;
  readonly context: Context;
}

/** Process CPU time since `start` (from `process.cpuUsage()`), ms. */
export function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** Awaits `work` and measures it: wall time and process CPU time, ms. */
export async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await work();
  const ms = performance.now() - started;
  return { result, ms, cpuMs: cpuMsSince(cpu) };
}

/** ContextGuard with its own callback time measured around `super`. */
export class TimedGuard extends ContextGuard {
  recording = false;
  readonly samples: CallSample[] = [];
  /** The last call seen (recorded or not), for measurements on its request. */
  last: CallSample | undefined;
  private pending: (Omit<CallSample, 'afterMs' | 'promptTokens' | 'cpuMs'> & { beforeCpuMs: number }) | undefined;
  private readonly promptTokensOf: (request: LlmRequest) => number | undefined;

  constructor(options: ContextGuardOptions, promptTokensOf: (request: LlmRequest) => number | undefined) {
    super(options);
    this.promptTokensOf = promptTokensOf;
  }

  override async beforeModelCallback(
    args: Parameters<ContextGuard['beforeModelCallback']>[0],
  ): Promise<LlmResponse | undefined> {
    const { result, ms: beforeMs, cpuMs: beforeCpuMs } = await timed(() => super.beforeModelCallback(args));
    const usage = decodeUsageRecord(
      args.callbackContext.state.get<unknown>(stateKeysFor(args.callbackContext.agentName).usage),
    );
    this.pending = {
      beforeMs,
      beforeCpuMs,
      usage,
      contents: args.llmRequest.contents.length,
      request: args.llmRequest,
      context: args.callbackContext,
    };
    return result;
  }

  override async afterModelCallback(
    args: Parameters<ContextGuard['afterModelCallback']>[0],
  ): Promise<LlmResponse | undefined> {
    const { result, ms: afterMs, cpuMs: afterCpuMs } = await timed(() => super.afterModelCallback(args));
    const pending = this.pending;
    this.pending = undefined;
    if (pending) {
      const { beforeCpuMs, ...rest } = pending;
      const sample: CallSample = {
        ...rest,
        afterMs,
        cpuMs: beforeCpuMs + afterCpuMs,
        promptTokens: this.promptTokensOf(pending.request),
      };
      this.last = sample;
      if (this.recording) this.samples.push(sample);
    }
    return result;
  }
}

/** A compactor wrapper that times `shouldCompact`. */
export class TimedCompactor implements BaseContextCompactor {
  recording = false;
  readonly samples: number[] = [];
  lastContext: InvocationContext | undefined;

  constructor(readonly inner: BaseContextCompactor) {}

  get trigger() {
    return this.inner.trigger;
  }

  async shouldCompact(invocationContext: InvocationContext): Promise<boolean> {
    const started = performance.now();
    const verdict = this.inner.shouldCompact(invocationContext);
    const result = verdict instanceof Promise ? await verdict : verdict;
    if (this.recording) this.samples.push(performance.now() - started);
    this.lastContext = invocationContext;
    return result;
  }

  compact(invocationContext: InvocationContext): void | Promise<void> {
    return this.inner.compact(invocationContext);
  }
}

/** A summarizer that answers at once and keeps its own time, so it can be subtracted. */
export function instantSummarizer(): Summarizer & { readonly calls: { ms: number; promptChars: number }[] } {
  const calls: { ms: number; promptChars: number }[] = [];
  return {
    name: 'instant',
    calls,
    async summarize(request) {
      const started = performance.now();
      const text = `## Current state\nThe agent has analysed ${request.prompt.length} characters of history.\n## Next steps\nContinue.`;
      calls.push({ ms: performance.now() - started, promptChars: request.prompt.length });
      return { text, finishReason: 'STOP' };
    },
  };
}

/** Ground-truth prompt tokens, remembered per request object for the guard's samples. */
export function countingTruth(counter: RequestTokenCounter): {
  count: RequestTokenCounter;
  of: (request: LlmRequest) => number | undefined;
} {
  const counts = new WeakMap<LlmRequest, number>();
  return {
    count: (request) => {
      const tokens = counter(request);
      counts.set(request, tokens);
      return tokens;
    },
    of: (request) => counts.get(request),
  };
}

export interface BenchAgent {
  readonly runner: Runner;
  readonly model: ScriptedLlm;
  readonly agent: LlmAgent;
  readonly sessionService: InMemorySessionService;
  readonly driver: TurnDriver;
}

export const INSTRUCTION =
  'You are an operations assistant for an online shop. Use the tools to look up orders, logs, source files and documents, ' +
  'then answer precisely. Quote identifiers exactly. When several tools are relevant, call them one after another.';

export function createBenchAgent(options: {
  window: number;
  countTokens: RequestTokenCounter;
  plugins?: BasePlugin[];
  compactors?: BaseContextCompactor[];
  modelName?: string;
  /** Another agent's store, for a second replica of its sessions (a new guard: nothing of them in its memory). */
  sessionService?: InMemorySessionService;
}): BenchAgent {
  const driver = new TurnDriver();
  const model = new ScriptedLlm({
    model: options.modelName ?? 'scripted-bench',
    window: options.window,
    countTokens: options.countTokens,
    script: () => ({ content: driver.respond() }),
    outputTokens: 120,
  });
  const agent = new LlmAgent({
    name: AGENT_NAME,
    model,
    instruction: INSTRUCTION,
    tools: benchTools(),
    ...(options.compactors ? { contextCompactors: options.compactors } : {}),
  });
  const sessionService = options.sessionService ?? new InMemorySessionService();
  const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: options.plugins ?? [] });
  return { runner, model, agent, sessionService, driver };
}

/** What one planned turn did. */
export interface TurnOutcome {
  /** Error codes of the turn's events (an overflow shows up here). */
  readonly errors: string[];
  /** Thrown by the runner, if it threw. */
  readonly thrown?: string | undefined;
  /** The model's requests in this turn (ground-truth size, the emulated cache's part of it, rejected or not). */
  readonly requests: {
    readonly promptTokens: number;
    readonly cachedPromptTokens: number;
    readonly rejected: boolean;
  }[];
}

/** Runs one planned user turn. */
export async function runPlannedTurn(
  bench: BenchAgent,
  sessionId: string,
  text: string,
  plan: TurnPlan,
): Promise<TurnOutcome> {
  bench.driver.start(plan);
  const errors: string[] = [];
  let thrown: string | undefined;
  try {
    for await (const event of bench.runner.runAsync({
      userId: USER_ID,
      sessionId,
      newMessage: { role: 'user', parts: [{ text }] },
    })) {
      if (event.errorCode) errors.push(event.errorCode);
    }
  } catch (error) {
    thrown = error instanceof Error ? error.message.slice(0, 200) : String(error);
  }
  const requests = bench.model.requests.map((request) => ({
    promptTokens: request.promptTokens,
    cachedPromptTokens: request.cachedPromptTokens,
    rejected: request.rejected,
  }));
  // The scripted model keeps a deep copy of every request; the benchmark does not need them.
  bench.model.requests.length = 0;
  return { errors, thrown, requests };
}
