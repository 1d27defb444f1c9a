/**
 * The "real system" of the model-based property runs: one session driven
 * through real ADK `Runner`s, real `LlmAgent`s and tools, an
 * `InMemorySessionService`, and a strict `ScriptedLlm` per agent, with one
 * `ContextGuard`. It keeps a timeline of what happened on every model call
 * (what ADK built, what the guard logged and compacted, what the model
 * received) and checks each call against the guard's promises.
 *
 * Topologies: a single agent; two root agents on one session (each sees the
 * other's events as "For context:"); a router with two sub-agents that hand
 * over with `transfer_to_agent`. Each agent has its own window, and one
 * of them may have no per-agent policy (its window comes from `modelWindows`).
 */
import { isDeepStrictEqual } from 'node:util';
import {
  BasePlugin,
  FunctionTool,
  InMemorySessionService,
  LlmAgent,
  Runner,
  type Context,
  type Event,
  type LlmRequest,
  type LlmResponse,
} from '@google/adk';
import type { Content, Part } from '@google/genai';
import { ContextGuard, type CompactionRecord, type ContextGuardOptions } from '../../src/index.js';
import { decodeCompactionRecord, decodeSummaryRecord, decodeUsageRecord, stateKeysFor } from '../../src/internal.js';
import { encodeRecord } from '../../src/state/codec.js';
import { ScriptedLlm, ratioTokenCounter, type RequestTokenCounter } from '../../src/testing/index.js';
import { estimatorCounter, proportionalCounter } from './proportional-counter.js';
import { CapturingLogger, OVER_LIMIT_WARNING, type LogLine } from '../../src/testing/index.js';
import { pngBytes, toBase64 } from '../../src/testing/index.js';
import { payloadResult, type PayloadKind } from './payloads.js';
import { pairingViolations, requestPresenceViolations, startViolations, summaryText } from './request-invariants.js';
import { ScriptedSummarizerLlm, SUMMARIZER_THOUGHT, type SummarizerMode } from '../../src/testing/index.js';

export type Topology = 'single' | 'two-roots' | 'router';

/** How the scripted provider counts a request's real tokens. */
export type GroundTruth =
  /** `ratio` x the estimator's own count, framing included (the calibration envelope's provider). */
  | 'estimator'
  /** `ratio` x the tiktoken count of every text, without the estimator's framing (its ratio to the estimate is lower on small requests). */
  | 'proportional'
  /** `ratio` x characters / 4 (the simulator's provider; its ratio to tiktoken depends on the script: CJK, base64, prose). */
  | 'chars';

export interface WorldConfig {
  readonly topology: Topology;
  /** Context window of each agent's model, in agent order (see `agentNames`). */
  readonly windows: readonly number[];
  /** Index of an agent that has no per-agent policy (its window comes from `modelWindows`), or -1. */
  readonly unconfiguredAgent: number;
  readonly truth: GroundTruth;
  /** Real tokens per estimated (or per chars/4) token at the start. */
  readonly ratio: number;
  readonly reportUsage: boolean;
  readonly summarizerMode: SummarizerMode;
  readonly summarizerWindow: number;
  /** Characters of every agent's instruction. */
  readonly instructionChars: number;
  /** Global policy fields, every one optional. */
  readonly policy: Pick<
    ContextGuardOptions,
    | 'bufferRatio'
    | 'compactTargetRatio'
    | 'hardLimitRatio'
    | 'uncalibratedThresholdRatio'
    | 'defaultCorrection'
    | 'strategy'
    | 'toolOutputTruncation'
  >;
}

export function agentNames(topology: Topology): string[] {
  if (topology === 'single') return ['worker'];
  if (topology === 'two-roots') return ['alpha', 'beta'];
  return ['router', 'alpha', 'beta'];
}

/** One tool call a scripted model makes. Sizes are absolute characters, or a fraction of the calling agent's window. */
export interface ToolCallPlan {
  readonly kind: PayloadKind;
  readonly chars?: number | undefined;
  /** Result of about `windowFraction` x the agent's window, in tokens (3 characters each). */
  readonly windowFraction?: number | undefined;
  readonly seed: number;
}

/** One model response in a turn: tool calls (several = parallel), or a hand-over to another agent. */
export type StepPlan =
  | { readonly kind: 'tools'; readonly calls: readonly ToolCallPlan[] }
  | { readonly kind: 'transfer'; readonly to: string };

export interface TurnPlan {
  /** Which root agent's runner gets the message (two-roots topology); ignored otherwise. */
  readonly entry: number;
  readonly text: string;
  /** Attach a PNG of this size to the message. */
  readonly image?: { readonly width: number; readonly height: number } | undefined;
  readonly steps: readonly StepPlan[];
  /** Characters of the final answer. */
  readonly answerChars: number;
}

type TimelineEntry =
  | { readonly kind: 'guard-in'; readonly agent: string; readonly rawContents: number; readonly invocationId: string }
  /** What the guard recorded for the call it just handled (its usage record, read by a plugin registered after it). */
  | {
      readonly kind: 'guard-out';
      readonly agent: string;
      readonly calibrated: number;
      readonly threshold: number;
      readonly hardLimit: number;
    }
  | { readonly kind: 'log'; readonly line: LogLine }
  | { readonly kind: 'compaction'; readonly record: CompactionRecord }
  | { readonly kind: 'request'; readonly agent: string; readonly model: ScriptedLlm; readonly index: number };

/** What the checks saw, for the counts the suite prints. */
export interface WorldStats {
  modelCalls: number;
  rejectedCalls: number;
  overLimitCalls: number;
  /** Calls sent above the guard's threshold (it could not reduce them further) without the over-limit warning. */
  aboveThresholdCalls: number;
  /** Rejections that came right after a rejection of the same agent (recovery took two calls). */
  secondRejections: number;
  compactions: number;
  fallbackCompactions: number;
  summarizerCalls: number;
  restarts: number;
  turns: number;
  transfers: number;
}

export function emptyWorldStats(): WorldStats {
  return {
    modelCalls: 0,
    rejectedCalls: 0,
    overLimitCalls: 0,
    aboveThresholdCalls: 0,
    secondRejections: 0,
    compactions: 0,
    fallbackCompactions: 0,
    summarizerCalls: 0,
    restarts: 0,
    turns: 0,
    transfers: 0,
  };
}

export interface CheckOptions {
  /**
   * Whether the provider may reject a request the guard believed fit (a
   * ground truth outside the calibration's envelope). Even then it may never
   * reject three consecutive calls of one agent: each rejection forces a
   * compaction sized by the real count the error states.
   */
  readonly allowRecoveredRejections: boolean;
  /** Whether every summarizer prompt must fit the summarizer's own window (it is bounded by `summarizerInputRatio`). */
  readonly summarizerWithinWindow: boolean;
}

const APP = 'guard-property';
/** The guard's debug line when it starts preparing a summary in the background. */
const PREPARING_LINE = /preparing a summary ahead of the threshold/;
const USER = 'user-p';
/** Tokens per character used to turn a window fraction into characters. */
const CHARS_PER_TOKEN = 3;

/** A plugin registered before the guard (it sees the request exactly as ADK built it) or after it (it sees what the guard recorded). */
class RequestProbe extends BasePlugin {
  constructor(
    name: string,
    private readonly onRequest: (agent: string, request: LlmRequest, context: Context) => void,
  ) {
    super(name);
  }

  override async beforeModelCallback({
    callbackContext,
    llmRequest,
  }: Parameters<BasePlugin['beforeModelCallback']>[0]): Promise<LlmResponse | undefined> {
    this.onRequest(callbackContext.agentName, llmRequest, callbackContext);
    return undefined;
  }
}

export class GuardedWorld {
  readonly sessionService = new InMemorySessionService();
  readonly names: string[];
  readonly models = new Map<string, ScriptedLlm>();
  readonly summarizer: ScriptedSummarizerLlm;
  readonly logger: CapturingLogger;
  readonly compactions: CompactionRecord[] = [];
  readonly stats: WorldStats = emptyWorldStats();
  ratio: number;
  reportUsage: boolean;
  sessionId = '';
  private readonly timeline: TimelineEntry[] = [];
  private checkedUpTo = 0;
  private summarizerCallsChecked = 0;
  private queue: StepPlan[] = [];
  private answerChars = 0;
  private currentRequest = '';
  private runners: Runner[] = [];
  private guard!: ContextGuard;
  private readonly windowByAgent = new Map<string, number>();
  /** Per agent: the last checked call (raw contents ADK built, and whether the guard compacted on it). */
  private readonly lastCall = new Map<string, { raw: number; compacted: boolean; streak: number }>();
  /** Agents the guard has warned about an over-limit request: it warns once per cause, not on every call. */
  private readonly warnedOverLimitAgents = new Set<string>();

  private constructor(readonly config: WorldConfig) {
    this.names = agentNames(config.topology);
    this.ratio = config.ratio;
    this.reportUsage = config.reportUsage;
    this.logger = new CapturingLogger({ onLine: (line) => this.timeline.push({ kind: 'log', line }) });
    const counter = this.truthCounter();
    this.names.forEach((name, i) => {
      const window = config.windows[i] ?? config.windows[0] ?? 8_000;
      this.windowByAgent.set(name, window);
      const model = new ScriptedLlm({
        model: `scripted-${name}`,
        window,
        countTokens: (request) => {
          // The provider also counts a cached prefix of the same request: one timeline entry per request.
          const index = model.requests.length;
          const last = this.timeline.at(-1);
          if (!(last?.kind === 'request' && last.model === model && last.index === index))
            this.timeline.push({ kind: 'request', agent: name, model, index });
          return counter(request);
        },
        script: ({ request }) => this.respond(name, request),
        reportUsage: () => this.reportUsage,
      });
      this.models.set(name, model);
    });
    this.summarizer = new ScriptedSummarizerLlm({
      mode: config.summarizerMode,
      window: config.summarizerWindow,
      countTokens: counter,
    });
  }

  static async create(config: WorldConfig): Promise<GuardedWorld> {
    const world = new GuardedWorld(config);
    world.build();
    const session = await world.sessionService.createSession({ appName: APP, userId: USER });
    world.sessionId = session.id;
    return world;
  }

  /** The provider's token counter; reads `ratio` at every call, so drift applies immediately. */
  private truthCounter(): RequestTokenCounter {
    if (this.config.truth === 'chars') return ratioTokenCounter(() => this.ratio);
    if (this.config.truth === 'estimator') return estimatorCounter(() => this.ratio);
    return proportionalCounter(() => this.ratio);
  }

  windowOf(agent: string): number {
    return this.windowByAgent.get(agent) ?? 8_000;
  }

  /** A new ContextGuard, new agents and new Runners on the same session service: a process restart. */
  restart(): void {
    this.stats.restarts++;
    this.build();
  }

  private build(): void {
    const { config } = this;
    const agents: Record<string, { contextWindow: number }> = {};
    const modelWindows: Record<string, number> = { 'scripted-summarizer': config.summarizerWindow };
    this.names.forEach((name, i) => {
      if (i === config.unconfiguredAgent) modelWindows[`scripted-${name}`] = this.windowOf(name);
      else agents[name] = { contextWindow: this.windowOf(name) };
    });
    this.guard = new ContextGuard({
      ...config.policy,
      agents,
      modelWindows,
      summarizer: this.summarizer,
      summarizerTimeoutMs: 40,
      logger: this.logger,
      onCompaction: (record) => {
        this.compactions.push(record);
        this.timeline.push({ kind: 'compaction', record });
      },
    });
    const probe = new RequestProbe('request_probe', (agent, request, context) =>
      this.timeline.push({
        kind: 'guard-in',
        agent,
        rawContents: request.contents?.length ?? 0,
        invocationId: context.invocationId,
      }),
    );
    const after = new RequestProbe('guard_probe', (agent, _request, context) => {
      const usage = decodeUsageRecord(context.state.get(stateKeysFor(agent).usage));
      this.timeline.push({
        kind: 'guard-out',
        agent,
        calibrated: usage.lastCalibrated ?? 0,
        threshold: usage.threshold ?? 0,
        hardLimit: usage.hardLimit ?? 0,
      });
    });
    const instruction =
      `You are a careful assistant. ${'Follow the operating procedures exactly. '.repeat(Math.ceil(config.instructionChars / 42))}`.slice(
        0,
        Math.max(30, config.instructionChars),
      );
    const makeAgent = (name: string, subAgents: LlmAgent[] = []): LlmAgent =>
      new LlmAgent({
        name,
        description: `The ${name} agent.`,
        model: this.models.get(name)!,
        instruction,
        tools: [this.fetchTool()],
        subAgents,
      });
    const plugins = [probe, this.guard, after];
    if (config.topology === 'router') {
      const root = makeAgent('router', [makeAgent('alpha'), makeAgent('beta')]);
      this.runners = [new Runner({ appName: APP, agent: root, sessionService: this.sessionService, plugins })];
    } else {
      this.runners = this.names.map(
        (name) => new Runner({ appName: APP, agent: makeAgent(name), sessionService: this.sessionService, plugins }),
      );
    }
  }

  private fetchTool(): FunctionTool {
    return new FunctionTool({
      name: 'fetch',
      description: 'Fetches a document of the requested kind and size.',
      parameters: {
        type: 'OBJECT',
        properties: {
          kind: { type: 'STRING' },
          chars: { type: 'INTEGER' },
          windowFraction: { type: 'NUMBER' },
          seed: { type: 'INTEGER' },
        },
        required: ['kind', 'seed'],
      } as never,
      execute: (input: unknown, context?: Context) => {
        const plan = input as ToolCallPlan;
        const chars =
          plan.windowFraction !== undefined
            ? Math.round(plan.windowFraction * this.windowOf(context?.agentName ?? '') * CHARS_PER_TOKEN)
            : (plan.chars ?? 0);
        return payloadResult(plan.kind, chars, plan.seed);
      },
    });
  }

  /** The scripted models' behaviour: the next planned step, or the final answer when the plan is done. */
  private respond(agent: string, _request: LlmRequest): Partial<LlmResponse> & { content: Content } {
    while (this.queue.length > 0) {
      const step = this.queue.shift()!;
      if (step.kind === 'transfer') {
        if (this.config.topology !== 'router' || step.to === agent || !this.names.includes(step.to)) continue;
        this.stats.transfers++;
        return {
          content: {
            role: 'model',
            parts: [{ functionCall: { name: 'transfer_to_agent', args: { agentName: step.to } } }],
          },
        };
      }
      const parts: Part[] = step.calls.map((call) => ({ functionCall: { name: 'fetch', args: { ...call } } }));
      return { content: { role: 'model', parts } };
    }
    return {
      content: {
        role: 'model',
        parts: [
          {
            text: `Answer from ${agent}: ${'done. '.repeat(Math.ceil(this.answerChars / 6)).slice(0, Math.max(5, this.answerChars))}`,
          },
        ],
      },
    };
  }

  /** Runs one user turn to its end. Returns the error codes of its events (a turn never throws unless something is broken). */
  async turn(plan: TurnPlan): Promise<{ errorCodes: string[]; thrown?: string }> {
    this.stats.turns++;
    this.queue = [...plan.steps];
    this.answerChars = plan.answerChars;
    this.currentRequest = plan.text;
    const parts: Part[] = [{ text: plan.text }];
    if (plan.image)
      parts.push({
        inlineData: { mimeType: 'image/png', data: toBase64(pngBytes(plan.image.width, plan.image.height)) },
      });
    const runner = this.runners[Math.min(plan.entry, this.runners.length - 1)]!;
    const errorCodes: string[] = [];
    try {
      const events: Event[] = [];
      for await (const event of runner.runAsync({
        userId: USER,
        sessionId: this.sessionId,
        newMessage: { role: 'user', parts },
      }))
        events.push(event);
      for (const event of events) if (event.errorCode) errorCodes.push(`${event.errorCode}`);
      return { errorCodes };
    } catch (error) {
      return { errorCodes, thrown: error instanceof Error ? error.message : String(error) };
    } finally {
      this.queue = [];
    }
  }

  /**
   * Checks every model call made since the last check. Returns the violations
   * (empty when every promise held), each naming the call.
   */
  checkNewCalls(options: CheckOptions): string[] {
    const problems: string[] = [];
    let guardIn: Extract<TimelineEntry, { kind: 'guard-in' }> | undefined;
    let guardOut: Extract<TimelineEntry, { kind: 'guard-out' }> | undefined;
    let sinceGuard: TimelineEntry[] = [];
    for (let t = this.checkedUpTo; t < this.timeline.length; t++) {
      const entry = this.timeline[t]!;
      if (entry.kind === 'guard-in') {
        guardIn = entry;
        sinceGuard = [];
        continue;
      }
      if (entry.kind === 'guard-out') {
        guardOut = entry;
        continue;
      }
      if (entry.kind !== 'request') {
        sinceGuard.push(entry);
        if (entry.kind === 'log' && entry.line.level === 'error')
          problems.push(`the guard logged an error: ${entry.line.message.slice(0, 300)}`);
        continue;
      }
      const recorded = entry.model.requests[entry.index];
      if (!recorded) continue;
      this.stats.modelCalls++;
      const where = `call ${entry.index} of ${entry.agent} (turn ${this.stats.turns}, window ${this.windowOf(entry.agent)}, ${recorded.promptTokens} real tokens)`;
      const logs = sinceGuard.flatMap((item) => (item.kind === 'log' ? [item.line] : []));
      const compactions = sinceGuard.flatMap((item) => (item.kind === 'compaction' ? [item.record] : []));
      const warnedOverLimit = logs.some(
        (line) => OVER_LIMIT_WARNING.test(line.message) && line.message.includes(`'${entry.agent}'`),
      );
      if (warnedOverLimit) this.stats.overLimitCalls++;
      if (recorded.rejected) this.stats.rejectedCalls++;
      if (warnedOverLimit) this.warnedOverLimitAgents.add(entry.agent);
      const previous = this.lastCall.get(entry.agent);
      // 1. Under the window, or the guard said why not.
      // Sent above the guard's own threshold: it could not reduce the request further (this happens only beyond the envelope).
      const aboveThreshold = guardOut?.agent === entry.agent && guardOut.calibrated > guardOut.threshold;
      const unexplained = recorded.rejected && !warnedOverLimit && !aboveThreshold;
      const streak = unexplained ? (previous?.streak ?? 0) + 1 : 0;
      // Warned now, or earlier for this agent and still sent above its threshold (the same cause, warned once).
      const explained = warnedOverLimit || (aboveThreshold && this.warnedOverLimitAgents.has(entry.agent));
      if (recorded.rejected && !explained) {
        if (!options.allowRecoveredRejections) problems.push(`${where}: over the window without an over-limit warning`);
        // Each rejection states the real size, which recalibrates the next call; when the content mix swings
        // (CJK or base64 then prose, in a chars/4 world) the first recalibration can still be short, never the second.
        else if (streak > 2) problems.push(`${where}: rejected ${streak} times in a row (no recovery)`);
        if (streak === 2) this.stats.secondRejections++;
      }
      if (aboveThreshold) this.stats.aboveThresholdCalls++;
      // 2-4. Shape of the request.
      for (const problem of [
        ...pairingViolations(recorded.contents),
        ...startViolations(recorded.contents),
        ...requestPresenceViolations(recorded.contents, this.currentRequest),
      ]) {
        problems.push(`${where}: ${problem}`);
      }
      if (summaryText(recorded.contents)?.includes(SUMMARIZER_THOUGHT))
        problems.push(`${where}: a summarizer thought reached the request`);
      // 5. No compaction loop.
      const raw = guardIn?.agent === entry.agent ? guardIn.rawContents : -1;
      const compacted = compactions.some((record) => record.agentName === entry.agent);
      for (const record of compactions) {
        this.stats.compactions++;
        if (record.fallback) this.stats.fallbackCompactions++;
        if (record.coveredContents.to <= record.coveredContents.from)
          problems.push(
            `${where}: a compaction covered nothing new (${record.coveredContents.from}..${record.coveredContents.to})`,
          );
        // Where the request cannot get under the threshold (a system prompt that takes most of the window) a larger
        // summary is discarded; faults-input.test.ts ("should never make a request larger by compacting it") pins it.
        if (record.tokensAfter > record.tokensBefore && !warnedOverLimit && !aboveThreshold)
          problems.push(`${where}: a compaction grew the request (~${record.tokensBefore} -> ~${record.tokensAfter})`);
      }
      if (compacted && previous?.compacted && raw <= previous.raw) {
        problems.push(
          `${where}: compacted on consecutive calls without the history growing (${previous.raw} -> ${raw} contents)`,
        );
      }
      this.lastCall.set(entry.agent, { raw, compacted, streak });
      // The contents were checked; drop them to keep memory flat over long runs.
      recorded.contents.splice(0);
      guardIn = undefined;
      guardOut = undefined;
      sinceGuard = [];
    }
    this.checkedUpTo = this.timeline.length;
    for (; this.summarizerCallsChecked < this.summarizer.calls.length; this.summarizerCallsChecked++) {
      const call = this.summarizer.calls[this.summarizerCallsChecked]!;
      if (options.summarizerWithinWindow && call.rejected) {
        problems.push(
          `summarizer call ${this.summarizerCallsChecked}: a ${call.promptTokens}-token prompt over the summarizer's ${this.config.summarizerWindow}-token window`,
        );
      }
    }
    return problems;
  }

  /**
   * The guard's records in session state decode and round-trip exactly, hold
   * counts that match what happened, and nothing is written outside the
   * guard's session-scoped prefix.
   */
  async stateViolations(): Promise<string[]> {
    const problems: string[] = [];
    const session = await this.sessionService.getSession({ appName: APP, userId: USER, sessionId: this.sessionId });
    const state = session?.state ?? {};
    for (const key of Object.keys(state)) {
      if (!key.startsWith('context_guard:')) problems.push(`unexpected state key '${key}'`);
    }
    this.stats.summarizerCalls = this.summarizer.calls.length;
    // A summary that came out no smaller than what it replaced is discarded (and counted) instead of sent.
    const discarded = this.names.reduce(
      (total, name) => total + decodeUsageRecord(state[stateKeysFor(name).usage]).discardedCompactions,
      0,
    );
    // Background compaction calls the summarizer ahead of the threshold, once per preparation started.
    const prepared = this.logger.matching(PREPARING_LINE).length;
    // A summary takes several calls when what it covers does not fit the summarizer's window at once (at most 4,
    // summary/summarize-covered.ts); a compaction's record says how many.
    const compacted = this.compactions.reduce((total, record) => total + (record.summarizerCalls ?? 1), 0);
    if (this.summarizer.calls.length > compacted + 4 * (discarded + prepared)) {
      problems.push(
        `${this.summarizer.calls.length} summarizer calls for ${this.compactions.length} compactions, ${discarded} discarded summaries and ${prepared} preparations`,
      );
    }
    for (const name of this.names) {
      const keys = stateKeysFor(name);
      const model = this.models.get(name)!;
      const storedUsage = state[keys.usage];
      if (storedUsage === undefined) {
        if (model.requests.length > 0)
          problems.push(`${name}: ${model.requests.length} model calls but no usage record`);
      } else {
        const usage = decodeUsageRecord(storedUsage);
        if (!isDeepStrictEqual(encodeRecord(usage), storedUsage))
          problems.push(`${name}: usage record does not round-trip: ${JSON.stringify(storedUsage).slice(0, 300)}`);
        if (usage.modelCalls !== model.requests.length)
          problems.push(
            `${name}: usage counts ${usage.modelCalls} model calls, the model received ${model.requests.length}`,
          );
        const compactions = this.compactions.filter((record) => record.agentName === name).length;
        if (usage.compactions !== compactions)
          problems.push(`${name}: usage counts ${usage.compactions} compactions, onCompaction saw ${compactions}`);
      }
      const storedSummary = state[keys.summary];
      if (storedSummary !== undefined && storedSummary !== null) {
        const summary = decodeSummaryRecord(storedSummary);
        if (!summary) problems.push(`${name}: summary record does not decode`);
        else if (!isDeepStrictEqual(encodeRecord(summary), storedSummary))
          problems.push(`${name}: summary record does not round-trip`);
        else if (summary.text.includes(SUMMARIZER_THOUGHT))
          problems.push(`${name}: a summarizer thought was stored in the summary`);
      }
      const storedRecord = state[keys.lastCompaction];
      if (storedRecord !== undefined && !decodeCompactionRecord(storedRecord))
        problems.push(`${name}: last compaction record does not decode`);
    }
    return problems;
  }
}
