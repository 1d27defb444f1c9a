/**
 * ContextGuard, the ADK plugin. It wires the pure core (guard/guard-request.ts)
 * to ADK's callbacks; it holds no policy of its own.
 *
 * - `beforeModelCallback`: measure the request, apply the stored summary, and
 *   compact when the calibrated estimate reaches the threshold.
 * - `afterModelCallback`: record the provider's real prompt count.
 * - `onModelErrorCallback`: learn from a "prompt too long" rejection, and make
 *   sure state written earlier in the step is not lost (ADK drops the step's
 *   state delta when the model call fails, unless this callback returns a full
 *   event that carries it).
 *
 * Register it once on a `Runner` or `App`; it serves every agent, each with its
 * own policy and its own state keys. It attaches itself to `AgentTool`
 * children (which ADK runs without plugins) when they are first called; for a
 * Runner without plugins, `guard.attachTo(agent)`.
 */
import {
  BasePlugin,
  createEvent,
  createEventActions,
  type BaseAgent,
  type BaseSessionService,
  type BaseTool,
  type Session,
  type State,
  isBaseLlm,
  isLlmAgent,
  getLogger,
  type Context,
  type LlmRequest,
  type LlmResponse,
  type SingleAfterModelCallback,
  type SingleAfterToolCallback,
  type SingleBeforeModelCallback,
} from '@google/adk';
import type { Content } from '@google/genai';
import { llmSummarizer } from './adk/llm-summarizer.js';
import { CompactionHooks, compactionTrigger, insideCompactionHook } from './adk/compaction-hooks.js';
import { addGuardCallbacks, agentToolChild, brandGuardCallback, forEachLlmAgent, type GuardAgentCallbackSet } from './adk/attach-to-agent.js';
import { asPluginAfterToolCallback, createToolOutputTruncator, type PluginAfterToolParams, type ToolCallbackContext } from './adk/tool-output-callback.js';
import { withArtifactOffload } from './adk/offload-tool-output.js';
import type { ToolTruncationRecord } from './truncation/truncate-tool-output.js';
import { isContextRecallTool } from './adk/recall-tool.js';
import { scopeOfContext, scopeOfRef, sessionIdPrefix, type SessionRef } from './adk/session-scope.js';
import { contentText, isUserRequest } from './content/content-shape.js';
import { ContextGuardPinError } from './errors.js';
import { addPin, ALL_AGENTS, decodePins, pinnedContent, shouldTryFirstRequestPin, type AddPinResult, type Pin, type PinSource } from './memory/pins.js';
import { fitPinsToCap, pinCapFor } from './memory/fit-pins.js';
import { runSummarizer, type Summarizer } from './compaction/summarizer.js';
import { ContentMeasureCache } from './estimate/content-measure-cache.js';
import { estimateFixedTokens, TokenMemo } from './estimate/estimate-request.js';
import { fingerprint } from './estimate/fingerprint.js';
import { DEFAULT_CONTEXT_WINDOW, normalizeModelName, resolveContextWindow } from './estimate/model-registry.js';
import { tiktokenTokenizer, type Tokenizer } from './estimate/tokenizer.js';
import { checkedTokenizer } from './estimate/checked-tokenizer.js';
import { guardRequest, type CompactionOutcome } from './guard/guard-request.js';
import { isOverflowError, recordRejection, recordReportedUsage } from './guard/record-usage.js';
import { trackTurn } from './guard/track-turns.js';
import { chooseWindow, learnedWindowFor, type WindowChoice } from './guard/learned-window.js';
import { COMPACTION_METADATA_KEY, type CompactionRecord } from './records/compaction-record.js';
import { mapContentsToEvents } from './records/map-contents-to-events.js';
import { agentStatus, guardedAgents, type AgentContextStatus } from './status/guard-status.js';
import { recordCompactionTelemetry, recordUtilization } from './telemetry/guard-telemetry.js';
import { recordUsageTelemetry } from './telemetry/usage-telemetry.js';
import { billUsage } from './cost/bill-usage.js';
import { priceFor } from './cost/price-table.js';
import { modelNameOf } from './adk/model-name.js';
import {
  resolvePolicy,
  validateOptions,
  type ContextGuardOptions,
  type GuardLogger,
  type ResolvedPolicy,
  type SummarizerOption,
} from './options.js';
import { decodeSummaryRecord, decodeUsageRecord, encodeRecord, type SummaryRecord, type UsageRecord } from './state/guard-state.js';
import { locateWatermark } from './state/watermark.js';
import { decodeMaskRecord } from './state/mask-record.js';
import { STATE_PREFIX, stateKeysFor } from './state/state-keys.js';

const CONTEXT_GUARD_BRAND = Symbol.for('adk-context-guard.ContextGuard');
const LOG_PREFIX = '[context_guard]';
/** Compaction records awaiting their model response, at most (see rememberPendingRecord). */
const MAX_PENDING_RECORDS = 1_000;
/** Causes remembered by warnOnce before it starts afresh. */
const MAX_WARNED_CAUSES = 10_000;

/** True for a `ContextGuard`, even one from another copy of the package. */
export function isContextGuard(value: unknown): value is ContextGuard {
  return typeof value === 'object' && value !== null && CONTEXT_GUARD_BRAND in value;
}

/** The agent-level form of the guard, for `LlmAgent({ beforeModelCallback, afterModelCallback })`. */
export interface ContextGuardAgentCallbacks {
  readonly beforeModelCallback: SingleBeforeModelCallback;
  readonly afterModelCallback: SingleAfterModelCallback;
  readonly afterToolCallback: SingleAfterToolCallback;
}

export class ContextGuard extends BasePlugin {
  readonly [CONTEXT_GUARD_BRAND] = true;
  private readonly options: ContextGuardOptions;
  private readonly tokenizer: Tokenizer;
  private readonly logger: GuardLogger;
  private readonly measures = new ContentMeasureCache();
  private readonly fixedMemo = new TokenMemo();
  /** Tokens of masked tool results by fingerprint: content-independent figures, shared by every session. */
  private readonly maskedMemo = new TokenMemo(20_000);
  private readonly policies = new Map<string, ResolvedPolicy>();
  private readonly warnedModels = new Set<string>();
  private readonly warnedCauses = new Set<string>();
  /** Windows providers stated in rejections, by normalised model name: every session this guard serves benefits. */
  private readonly learnedWindows = new Map<string, number>();
  /** Agent and model pairs whose larger `contextWindow` a stated maximum overrode (logged once). */
  private readonly warnedOverrides = new Set<string>();
  /** Requests already handled, so the plugin and agent-callback forms never both apply. */
  private readonly handled = new WeakSet<LlmRequest>();
  /** Records of compactions whose model response has not arrived yet, by session, invocation and agent. */
  private readonly pendingRecords = new Map<string, CompactionRecord>();
  private readonly listeners = new Set<(record: CompactionRecord) => void | Promise<void>>();
  /**
   * Calls for the same session and agent run one at a time, so two concurrent
   * requests never both summarize the same history: the second waits and reuses
   * the first one's summary (validated by its anchor like any stored summary).
   * Entries exist only while calls are queued; nothing here outlives them.
   */
  private readonly queues = new Map<string, Promise<void>>();
  private readonly sharedSummaries = new Map<string, SummaryRecord>();
  /** Head+tail truncation of oversized tool results, per agent policy (see docs/truncation.md). */
  private readonly toolTruncator = withArtifactOffload(
    createToolOutputTruncator(
      (agentName) => (this.policyFor(agentName).enabled ? this.policyFor(agentName).toolOutputTruncation : false),
      (record, context) => this.recordTruncation(record, context),
    ),
    () => this.logger,
  );
  private readonly pluginToolTruncator = asPluginAfterToolCallback(this.toolTruncator);
  private agentCallbackSet: GuardAgentCallbackSet | undefined;

  /** @throws ContextGuardConfigError when an option is invalid. */
  constructor(options: ContextGuardOptions = {}) {
    validateOptions(options);
    super(options.name ?? 'context_guard');
    this.options = options;
    this.logger = options.logger ?? getLogger();
    const tokenizer = options.tokenizer ?? tiktokenTokenizer;
    this.tokenizer = checkedTokenizer(tokenizer, (value) =>
      this.logger.warn(`${LOG_PREFIX} tokenizer '${tokenizer.name}' returned ${describeCount(value)}, not a token count; such counts are replaced by the built-in count (reported once).`),
    );
    if (options.onCompaction) this.listeners.add(options.onCompaction);
  }

  /**
   * Calls `listener` with the record of every compaction (after it is stored).
   * Returns a function that removes it. A listener that throws is logged and ignored.
   */
  onCompaction(listener: (record: CompactionRecord) => void | Promise<void>): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Token status of every guarded agent of a session (or of one agent), read
   * from the session's state: last real count, current estimate, window,
   * threshold, percent used, turns left at the average turn size, compactions
   * and the last compaction's record. An agent with no guard state in the
   * session (a misspelt name, or one that has not run) gets `known: false`
   * rather than an error: status calls sit in monitoring paths.
   */
  status(session: { readonly state: Readonly<Record<string, unknown>> }): AgentContextStatus[];
  status(session: { readonly state: Readonly<Record<string, unknown>> }, agentName: string): AgentContextStatus;
  status(session: { readonly state: Readonly<Record<string, unknown>> }, agentName?: string): AgentContextStatus | AgentContextStatus[] {
    if (agentName !== undefined) return agentStatus(session.state, agentName);
    return guardedAgents(session.state).map((name) => agentStatus(session.state, name));
  }

  /** The resolved policy of an agent (defaults, then global options, then the agent's own). */
  policyFor(agentName: string): ResolvedPolicy {
    let policy = this.policies.get(agentName);
    if (!policy) {
      policy = resolvePolicy(this.options, agentName);
      this.policies.set(agentName, policy);
    }
    return policy;
  }

  /**
   * Pins `text` for an agent (or every agent, the default) in a stored session:
   * it is carried verbatim in every later request and never summarized away.
   * The pin is written as a state-only event through the session service.
   * @throws ContextGuardPinError when the pins would exceed the agent's cap.
   */
  async pin(params: { sessionService: BaseSessionService; session: Session; text: string; agentName?: string }): Promise<Pin> {
    const agentName = params.agentName ?? ALL_AGENTS;
    const key = stateKeysFor(agentName).pins;
    const state = params.session.state;
    const result = addPin(decodePins(state[key]), newPin(params.text, 'application'), this.pinCap(agentName, state), this.tokenizer, sharedPins(agentName, (name) => state[name]));
    if (!result.ok) throw new ContextGuardPinError(agentName, result.tokens, result.cap);
    await params.sessionService.appendEvent({
      session: params.session,
      event: createEvent({ invocationId: `context_guard-pin-${Date.now()}`, author: 'user', actions: createEventActions({ stateDelta: { [key]: result.pins } }) }),
    });
    return result.pin;
  }

  /**
   * Makes the agent's next model call compact whatever its estimate says (the
   * `/compact` of a chat UI). Written as a state-only event; nothing is
   * summarized until that call, which is the only place the request exists.
   */
  async requestCompaction(params: { sessionService: BaseSessionService; session: Session; agentName: string }): Promise<void> {
    const keys = stateKeysFor(params.agentName);
    const usage = decodeUsageRecord(params.session.state[keys.usage]);
    await params.sessionService.appendEvent({
      session: params.session,
      event: createEvent({
        invocationId: `context_guard-compact-${Date.now()}`,
        author: 'user',
        actions: createEventActions({ stateDelta: { [keys.usage]: encodeRecord({ ...usage, forceCompaction: true }), [keys.compactionRequest]: Date.now() } }),
      }),
    });
  }

  /** Adds a pin through a callback or tool context's state (used by `pinContextTool`). */
  pinInState(state: State, agentName: string, text: string, source: PinSource, window?: number): AddPinResult {
    const key = stateKeysFor(agentName).pins;
    const record = state.toRecord();
    const result = addPin(decodePins(state.get<unknown>(key)), newPin(text, source), this.pinCap(agentName, record, window), this.tokenizer, sharedPins(agentName, (name) => record[name]));
    if (result.ok) state.set(key, result.pins);
    return result;
  }

  /** Token cap of an agent's pins under `window`, else under its window last seen, configured or assumed. */
  private pinCap(agentName: string, state: Readonly<Record<string, unknown>>, window?: number): number {
    const policy = this.policyFor(agentName);
    const known = window ?? decodeUsageRecord(state[stateKeysFor(agentName).usage]).window ?? policy.contextWindow ?? this.options.defaultContextWindow ?? DEFAULT_CONTEXT_WINDOW;
    return pinCapFor(known, policy.maxPinnedTokens);
  }

  /**
   * Releases what this process caches about a session (per-content measures,
   * bounded in any case: least recently used sessions go first). Call it when a
   * session ends or is deleted; correctness never depends on the cache.
   * Pass the `Session` (or `{ appName, userId, sessionId }`); a bare session id
   * releases that id for every app and user.
   */
  forgetSession(session: SessionRef | string): void {
    this.measures.forgetPrefix(typeof session === 'string' ? sessionIdPrefix(session) : `${scopeOfRef(session)}\u0000`);
  }

  /**
   * The guard's callbacks as `LlmAgent` config fields. Spread into a config they
   * replace the agent's own callbacks of the same names (or are replaced by
   * them): use `attachTo(agent)`, which keeps both.
   * @deprecated Use `guard.attachTo(agent)`.
   */
  agentCallbacks(): ContextGuardAgentCallbacks {
    const set = this.callbackSet();
    return { beforeModelCallback: set.beforeModel, afterModelCallback: set.afterModel, afterToolCallback: set.afterTool };
  }

  /**
   * Adds the guard to `agent` and every agent below it (`subAgents`), keeping
   * their own callbacks, for agents run without this plugin (a Runner or CLI
   * mode without plugins). Idempotent; an agent that already has a guard's
   * callbacks is left as it is. `AgentTool` children are attached when first
   * called. Returns `agent`.
   */
  attachTo<T extends BaseAgent>(agent: T): T {
    forEachLlmAgent(agent, (each) => addGuardCallbacks(each, this.callbackSet()));
    return agent;
  }

  /** Attaches the guard to an `AgentTool` child before ADK runs it in its own Runner, without plugins. */
  override async beforeToolCallback({ tool }: { tool: BaseTool }): Promise<Record<string, unknown> | undefined> {
    try {
      const child = agentToolChild(tool);
      if (child) this.attachTo(child);
    } catch (error) {
      this.logger.error(`${LOG_PREFIX} could not attach to the AgentTool child '${tool?.name}'; it runs unguarded.`, error);
    }
    return undefined;
  }

  /** One set of agent-level callbacks per guard, branded so any guard recognises them. */
  private callbackSet(): GuardAgentCallbackSet {
    this.agentCallbackSet ??= {
      beforeModel: brandGuardCallback(async ({ context, request }: { context: Context; request: LlmRequest }) => {
        await this.guard(context, request);
        return undefined;
      }),
      afterModel: brandGuardCallback(async ({ context, response }: { context: Context; response: LlmResponse }) => {
        this.recordResponse(context, response);
        return undefined;
      }),
      afterTool: brandGuardCallback(this.toolTruncator),
      beforeTool: brandGuardCallback(async ({ tool }: { tool: BaseTool }) => this.beforeToolCallback({ tool })),
    };
    return this.agentCallbackSet;
  }

  override async afterToolCallback(params: PluginAfterToolParams): Promise<Record<string, unknown> | undefined> {
    try {
      return await this.pluginToolTruncator(params);
    } catch (error) {
      this.logger.error(`${LOG_PREFIX} tool output truncation failed; the result is kept as it is.`, error);
      return undefined;
    }
  }

  override async beforeModelCallback({ callbackContext, llmRequest }: { callbackContext: Context; llmRequest: LlmRequest }): Promise<LlmResponse | undefined> {
    await this.guard(callbackContext, llmRequest);
    return undefined;
  }

  override async afterModelCallback({ callbackContext, llmResponse }: { callbackContext: Context; llmResponse: LlmResponse }): Promise<LlmResponse | undefined> {
    this.recordResponse(callbackContext, llmResponse);
    return undefined;
  }

  override async onModelErrorCallback({ callbackContext, llmRequest, error }: { callbackContext: Context; llmRequest: LlmRequest; error: Error }): Promise<LlmResponse | undefined> {
    try {
      const agentName = callbackContext.agentName;
      if (!this.policyFor(agentName).enabled) return undefined;
      const keys = stateKeysFor(agentName);
      const message = error?.message ?? String(error);
      if (isOverflowError(message)) {
        const usage = decodeUsageRecord(callbackContext.state.get(keys.usage));
        const next = recordRejection(usage, message, llmRequest?.model);
        callbackContext.state.set(keys.usage, encodeRecord(next));
        const learned = next.learnedWindow !== undefined && next.learnedWindowModel !== undefined && next.learnedWindow !== usage.learnedWindow;
        if (learned) this.learnedWindows.set(next.learnedWindowModel ?? '', next.learnedWindow ?? 0);
        const stated = learned ? ` It states a maximum of ${next.learnedWindow} tokens, now the window of model '${next.learnedWindowModel}'.` : '';
        this.logger.warn(`${LOG_PREFIX} agent '${agentName}': the model rejected the request as too long; the next call compacts first.${stated}`);
      }
      const delta = callbackContext.actions.stateDelta;
      const prefix = `${STATE_PREFIX}:${agentName}:`;
      if (!Object.keys(delta).some((key) => key.startsWith(prefix))) return undefined;
      // ADK persists a failed step's state delta only through an event it is handed back.
      const { errorCode, errorMessage } = describeModelError(message);
      const record = this.takePendingRecord(callbackContext);
      return createEvent({
        invocationId: callbackContext.invocationId,
        author: agentName,
        branch: callbackContext.invocationContext.branch,
        actions: callbackContext.actions,
        errorCode,
        errorMessage,
        ...(record ? { customMetadata: { [COMPACTION_METADATA_KEY]: record } } : {}),
      });
    } catch (failure) {
      this.logger.error(`${LOG_PREFIX} onModelErrorCallback failed; ADK's default error handling applies.`, failure);
      return undefined;
    }
  }

  /** The before-model work shared by the plugin and the agent-callback forms. Never throws. */
  private async guard(context: Context, request: LlmRequest): Promise<void> {
    if (this.handled.has(request)) return;
    this.handled.add(request);
    // App + user + session: the same session id may belong to another user or app.
    const key = `${scopeOfContext(context)}\u0000${context.agentName}`;
    // A call made by another plugin's compaction hook would wait for the turn that fired the hook.
    if (insideCompactionHook(key)) return this.guardInOrder(context, request, key);
    const previous = this.queues.get(key) ?? Promise.resolve();
    let release: () => void = () => undefined;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.queues.set(key, tail);
    await previous;
    try {
      await this.guardInOrder(context, request, key);
    } finally {
      release();
      if (this.queues.get(key) === tail) {
        this.queues.delete(key);
        this.sharedSummaries.delete(key);
      }
    }
  }

  private async guardInOrder(context: Context, request: LlmRequest, key: string): Promise<void> {
    const agentName = context.agentName;
    let hooks: CompactionHooks | undefined;
    let compacted = false;
    try {
      const policy = this.policyFor(agentName);
      if (!policy.enabled) return;
      const keys = stateKeysFor(agentName);
      const storedSummary = context.state.get<unknown>(keys.summary);
      let summary = decodeSummaryRecord(storedSummary);
      if (storedSummary !== undefined && storedSummary !== null && !summary) {
        // Warn once: clearing it keeps every later call from tripping over the same garbage.
        this.logger.warn(`${LOG_PREFIX} agent '${agentName}': ignoring an unreadable summary record in state; it is cleared.`);
        context.state.set(keys.summary, null);
      }
      const usage = decodeUsageRecord(context.state.get<unknown>(keys.usage));
      const requested = context.state.get<unknown>(keys.compactionRequest) != null;
      hooks = new CompactionHooks(context.invocationContext, compactionTrigger(requested), this.logger, key);
      const contents = request.contents ?? [];
      const fingerprintAt = (index: number): string | undefined => {
        const content = contents[index];
        return content ? fingerprint(content) : undefined;
      };
      // A concurrent call on this session may have just summarized this history: reuse it if it fits.
      const shared = this.sharedSummaries.get(key);
      if (shared && shared.createdAt > (summary?.createdAt ?? -1) && locateWatermark(fingerprintAt, contents.length, shared.covered, shared.anchor).kind !== 'missing') {
        summary = shared;
      }
      const measures = this.measures.measure(key, contents, this.tokenizer);
      const fixed = estimateFixedTokens(request.config?.systemInstruction, request.config?.tools, this.tokenizer, this.fixedMemo);
      const windowChoice = this.agentWindow(policy, request.model, usage, agentName);
      const window = windowChoice.window;
      const summarizer = this.summarizerFor(policy, context, window);
      const { pins: storedPins, usage: usageAfterPins } = this.pinsFor(context, policy, contents, usage, window);
      const pins = this.fitPins(agentName, storedPins, pinCapFor(window, policy.maxPinnedTokens));
      const recallTool = Object.values(request.toolsDict ?? {}).find((tool) => isContextRecallTool(tool));
      const started = Date.now();
      const result = await guardRequest({
        pinned: pinnedContent(pins),
        recallToolName: recallTool?.name,
        contents,
        fingerprints: measures.fingerprints,
        fingerprintAt,
        tokens: measures.tokens,
        fixedTokens: fixed.systemTokens + fixed.toolTokens,
        summary,
        mask: decodeMaskRecord(context.state.get<unknown>(keys.mask)),
        manual: requested,
        maskedTokenMemo: this.maskedMemo,
        usage: usageAfterPins,
        policy,
        window,
        maxOutputTokens: request.config?.maxOutputTokens,
        // Undeclared, the summarizer's window is not taken above the agent's (which may have been learned smaller).
        summarizerWindow: policy.summarizerContextWindow ?? Math.min(summarizer?.window ?? window, window),
        tokenizer: this.tokenizer,
        summarize: summarizer
          ? hooks.wrap((summaryRequest: Parameters<typeof runSummarizer>[1], maxChars: number) =>
              runSummarizer(summarizer.summarizer, summaryRequest, { timeoutMs: policy.summarizerTimeoutMs, maxChars, signal: context.abortSignal }),
            )
          : undefined,
        now: started,
      });
      if (result.summaryDiscarded) {
        this.logger.warn(`${LOG_PREFIX} agent '${agentName}': stored summary not applied: ${result.summaryDiscarded}. Sending the full history.`);
        context.state.set(keys.summary, null);
      }
      if (result.summary) {
        context.state.set(keys.summary, encodeRecord(result.summary));
        // Read by calls queued behind this one; dropped when the queue empties.
        this.sharedSummaries.set(key, result.summary);
      } else if (summary && summary === shared) {
        context.state.set(keys.summary, encodeRecord(summary));
      }
      if (result.mask !== undefined) context.state.set(keys.mask, result.mask === null ? null : encodeRecord(result.mask));
      if (result.masking) {
        // A masking is a compaction too, for other plugins' hooks (made without a model call).
        compacted = true;
        this.logger.info(
          `${LOG_PREFIX} agent '${agentName}': masked old tool results before content ${result.masking.upTo}, ` +
            `~${result.masking.tokensBefore} -> ~${result.masking.tokensAfter} tokens, no model call.`,
        );
      }
      context.state.set(keys.usage, encodeRecord({ ...trackTurn(result.usage, context.invocationId, result.calibrated, result.budget), windowSource: windowChoice.origin }));
      if (requested) context.state.set(keys.compactionRequest, null);
      if (result.contents) request.contents = result.contents;
      recordUtilization(agentName, result.calibrated, result.budget.window);
      if (result.compaction) {
        compacted = true;
        const record = this.buildRecord(context, result.compaction, contents, measures.fingerprints, Date.now() - started, started, summarizer?.summarizer.name);
        context.state.set(keys.lastCompaction, encodeRecord(record));
        this.rememberPendingRecord(context, record);
        this.reportCompaction(record, result.compaction.fallbackReason);
        recordCompactionTelemetry(record, request.model);
        await this.notify(record);
      }
      if (result.overLimit && result.overLimitNewCause) {
        this.logger.warn(`${LOG_PREFIX} agent '${agentName}': ${result.overLimit}. Sending it anyway; nothing more can be removed.`);
      }
    } catch (error) {
      // Fail open: the request goes as ADK built it, the turn is not failed by the guard.
      this.logger.error(`${LOG_PREFIX} agent '${agentName}': guard failed; the request is sent unchanged.`, error);
    } finally {
      // Other plugins' compaction hooks (logged and ignored if they throw).
      await hooks?.settle(compacted);
    }
  }

  /**
   * The agent's pins and the every-agent pins; pins the first request when the policy asks. A refused pin
   * is noted in the usage record and tried again (and warned about) only under a larger cap.
   */
  private pinsFor(
    context: Context,
    policy: ResolvedPolicy,
    contents: readonly LlmRequest['contents'][number][],
    usage: UsageRecord,
    window: number,
  ): { pins: Pin[]; usage: UsageRecord } {
    const agentName = context.agentName;
    let own = decodePins(context.state.get<unknown>(stateKeysFor(agentName).pins));
    let next = usage;
    const cap = this.pinCap(agentName, context.state.toRecord(), window);
    if (policy.pinFirstRequest && !own.some((pin) => pin.source === 'first-request') && shouldTryFirstRequestPin(usage.firstRequestPinRefusedCap, cap)) {
      const first = contents.find((content) => isUserRequest(content));
      if (first) {
        const result = this.pinInState(context.state, agentName, contentText(first), 'first-request', window);
        if (result.ok) {
          own = result.pins;
        } else {
          next = { ...usage, firstRequestPinRefusedCap: cap };
          this.logger.warn(`${LOG_PREFIX} agent '${agentName}': the first request was not pinned: ${result.reason}. Not tried again unless the cap grows.`);
        }
      }
    }
    return { pins: [...sharedPins(agentName, (name) => context.state.get<unknown>(name)), ...own], usage: next };
  }

  /**
   * The pins that fit the cap of the window in force: a pin accepted under a larger window, or
   * written to state by hand, must not make every later turn fail. State keeps them whole.
   */
  private fitPins(agentName: string, pins: Pin[], cap: number): Pin[] {
    const fitted = fitPinsToCap(pins, cap, this.tokenizer);
    if (fitted.dropped.length === 0 && !fitted.cut) return pins;
    this.warnOnce(
      `pins|${agentName}|${cap}|${pins.map((pin) => pin.id).join(',')}`,
      `${LOG_PREFIX} agent '${agentName}': pins take more than their cap of ${cap} tokens under the current window; ` +
        `${fitted.dropped.length} left out of the request (oldest first)${fitted.cut ? ', one cut head and tail' : ''}. They stay in state.`,
    );
    return fitted.pins;
  }

  /** Logs a warning once per cause for the life of the process (bounded). */
  private warnOnce(cause: string, message: string): void {
    if (this.warnedCauses.has(cause)) return;
    if (this.warnedCauses.size >= MAX_WARNED_CAUSES) this.warnedCauses.clear();
    this.warnedCauses.add(cause);
    this.logger.warn(message);
  }

  /** Counts a truncation in the agent's state (persisted with the tool's response event) and reports it. */
  private recordTruncation(record: ToolTruncationRecord, context: ToolCallbackContext): void {
    const agentName = context.agentName;
    const key = stateKeysFor(agentName).toolTruncations;
    const previous = context.state.get<{ count?: unknown }>(key);
    const count = (typeof previous?.count === 'number' ? previous.count : 0) + 1;
    context.state.set(key, { count, last: record });
    this.logger.info(`${LOG_PREFIX} agent '${agentName}': tool '${record.tool}' result cut from ${record.originalBytes} to ${record.keptBytes} bytes.`);
    try {
      this.options.onToolTruncation?.({ ...record, agentName });
    } catch (error) {
      this.logger.error(`${LOG_PREFIX} an onToolTruncation listener failed; ignored.`, error);
    }
  }

  private recordResponse(context: Context, response: LlmResponse): void {
    try {
      const agentName = context.agentName;
      if (!this.policyFor(agentName).enabled) return;
      if (!response.partial) {
        // The compaction's audit record travels on the model response event (ADK persists customMetadata verbatim).
        const record = this.takePendingRecord(context);
        if (record) response.customMetadata = { ...(response.customMetadata ?? {}), [COMPACTION_METADATA_KEY]: record };
      }
      if (!response.usageMetadata) return;
      const keys = stateKeysFor(agentName);
      const usage = decodeUsageRecord(context.state.get<unknown>(keys.usage));
      const reported: UsageRecord = recordReportedUsage(usage, response.usageMetadata);
      const model = modelNameOf(context, response);
      // Partial (streamed) chunks repeat usage that the final response reports: bill that one only.
      const next = response.partial ? reported : billUsage(reported, response.usageMetadata, priceFor(model, this.options.prices));
      if (next !== usage) context.state.set(keys.usage, encodeRecord(next));
      if (next !== reported) recordUsageTelemetry(agentName, model, next, reported);
    } catch (error) {
      this.logger.error(`${LOG_PREFIX} failed to record usage; calibration skipped for this call.`, error);
    }
  }

  private buildRecord(
    context: Context,
    compaction: CompactionOutcome,
    contents: readonly Content[],
    fingerprints: readonly string[],
    durationMs: number,
    createdAt: number,
    summarizerName: string | undefined,
  ): CompactionRecord {
    const agentName = context.agentName;
    const coveredEvents = mapContentsToEvents(
      context.invocationContext.session.events,
      contents.slice(compaction.coveredFrom, compaction.coveredTo),
      fingerprints.slice(compaction.coveredFrom, compaction.coveredTo),
    );
    return {
      version: 1,
      id: `${context.invocationId}:${agentName}:${createdAt}`,
      agentName,
      sessionId: context.sessionId,
      invocationId: context.invocationId,
      strategy: this.policyFor(agentName).strategy,
      reason: compaction.reason,
      coveredContents: { from: compaction.coveredFrom, to: compaction.coveredTo },
      coveredEvents,
      tokensBefore: compaction.tokensBefore,
      tokensAfter: compaction.tokensAfter,
      compressionRatio: compaction.tokensAfter > 0 ? Math.round((compaction.tokensBefore / compaction.tokensAfter) * 100) / 100 : 0,
      summarizer: compaction.fallback ? 'fallback' : (summarizerName ?? 'unknown'),
      summarizerPromptTokens: compaction.summarizerPromptTokens,
      summarizerOutputTokens: compaction.summarizerOutputTokens,
      summaryChars: compaction.summaryChars,
      fallback: compaction.fallback,
      fallbackReason: compaction.fallbackKind,
      ...(this.options.debugSummarizerErrorText && compaction.fallbackReason ? { fallbackDetail: compaction.fallbackReason } : {}),
      summaryTruncated: compaction.summaryTruncated,
      facts: compaction.facts,
      droppedFacts: compaction.droppedFacts,
      droppedFromSummarizerInput: compaction.droppedFromSummarizerInput,
      durationMs,
      createdAt,
    };
  }

  /**
   * Keeps a record until its model response arrives. A call that is aborted gets neither an
   * after-model nor an error callback, so the map is bounded: the oldest entries go first
   * (their records are in state as `last_compaction` anyway).
   */
  private rememberPendingRecord(context: Context, record: CompactionRecord): void {
    this.pendingRecords.set(pendingKey(context), record);
    while (this.pendingRecords.size > MAX_PENDING_RECORDS) {
      const oldest = this.pendingRecords.keys().next().value;
      if (oldest === undefined) break;
      this.pendingRecords.delete(oldest);
    }
  }

  private takePendingRecord(context: Context): CompactionRecord | undefined {
    const key = pendingKey(context);
    const record = this.pendingRecords.get(key);
    if (record) this.pendingRecords.delete(key);
    return record;
  }

  private reportCompaction(record: CompactionRecord, detail: string | undefined): void {
    const how = record.fallback ? 'fallback summary' : `summary by ${record.summarizer}`;
    this.logger.info(
      `${LOG_PREFIX} agent '${record.agentName}': compacted contents ${record.coveredContents.from}..${record.coveredContents.to} ` +
        `(${record.coveredEvents.count} events), ~${record.tokensBefore} -> ~${record.tokensAfter} tokens, ${how}, ${record.durationMs} ms.`,
    );
    if (record.fallback) {
      // Only the kind of failure at warn level: a provider's error text can quote the conversation.
      this.logger.warn(`${LOG_PREFIX} agent '${record.agentName}': summarizer unavailable (${record.fallbackReason ?? 'failed'}); used the mechanical summary.`);
      this.logger.debug(`${LOG_PREFIX} agent '${record.agentName}': summarizer failure: ${detail ?? ''}`);
    }
  }

  private async notify(record: CompactionRecord): Promise<void> {
    for (const listener of this.listeners) {
      try {
        await listener(record);
      } catch (error) {
        this.logger.error(`${LOG_PREFIX} an onCompaction listener failed; ignored.`, error);
      }
    }
  }

  private windowFor(policy: ResolvedPolicy, model: string | undefined): number {
    const resolved = resolveContextWindow(model, {
      override: policy.contextWindow,
      table: this.options.modelWindows,
      defaultWindow: this.options.defaultContextWindow,
    });
    if (resolved.source === 'default' && !this.warnedModels.has(resolved.model)) {
      this.warnedModels.add(resolved.model);
      this.logger.warn(
        `${LOG_PREFIX} unknown model '${model ?? ''}': assuming a ${resolved.window}-token window until the provider states its maximum ` +
          `(the first request over the real window is rejected once; the maximum its error states becomes the window). ` +
          `Set contextWindow (per agent) or modelWindows: { '${resolved.model}': <tokens> } to use the real window from the first call.`,
      );
    }
    return resolved.window;
  }

  /** The agent's window: the registry's or the options', unless a provider's rejection stated a maximum (see guard/learned-window.ts). */
  private agentWindow(policy: ResolvedPolicy, model: string | undefined, usage: UsageRecord, agentName: string): WindowChoice {
    const processWindow = this.learnedWindows.get(normalizeModelName(model ?? ''));
    // Only rejections seen by this process feed the per-model map; a session's state informs that session alone.
    const learned = learnedWindowFor(usage, model, processWindow);
    const resolved = resolveContextWindow(model, { override: policy.contextWindow, table: this.options.modelWindows, defaultWindow: this.options.defaultContextWindow });
    const choice = chooseWindow(resolved, learned);
    // Warn about an unknown model only while nothing better is known.
    if (learned === undefined) this.windowFor(policy, model);
    const overrideKey = `${agentName}\u0000${resolved.model}`;
    if (choice.overriddenOption !== undefined && !this.warnedOverrides.has(overrideKey)) {
      this.warnedOverrides.add(overrideKey);
      this.logger.warn(
        `${LOG_PREFIX} agent '${agentName}': contextWindow ${choice.overriddenOption} for model '${resolved.model}' is larger than the maximum the provider ` +
          `stated (${choice.window}); using ${choice.window}.`,
      );
    }
    return choice;
  }

  /** `agentWindow`: the window resolved for the request's model, which a `Summarizer` without its own window shares. */
  private summarizerFor(policy: ResolvedPolicy, context: Context, agentWindow: number): { summarizer: Summarizer; window: number } | undefined {
    const option: SummarizerOption | undefined = policy.summarizer;
    if (option && 'summarize' in option && typeof option.summarize === 'function') {
      return { summarizer: option, window: policy.summarizerContextWindow ?? option.contextWindow ?? agentWindow };
    }
    if (option && isBaseLlm(option)) {
      return { summarizer: llmSummarizer(option), window: policy.summarizerContextWindow ?? this.windowFor({ ...policy, contextWindow: undefined }, option.model) };
    }
    const agent = context.invocationContext.agent;
    if (isLlmAgent(agent)) {
      const model = agent.canonicalModel;
      return { summarizer: llmSummarizer(model), window: policy.summarizerContextWindow ?? this.windowFor(policy, model.model) };
    }
    return undefined;
  }
}

/** The `*` pins that ride in an agent's requests beside its own (none for `*` itself). */
function sharedPins(agentName: string, read: (key: string) => unknown): Pin[] {
  return agentName === ALL_AGENTS ? [] : decodePins(read(stateKeysFor(ALL_AGENTS).pins));
}

function newPin(text: string, source: PinSource): Pin {
  return { id: `pin-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`, text, source, createdAt: Date.now() };
}

/** A bad tokenizer count for a log line (never the text it counted). */
function describeCount(value: unknown): string {
  if (value instanceof Error) return `an error (${value.name})`;
  return typeof value === 'number' ? String(value) : typeof value;
}

function pendingKey(context: Context): string {
  return `${scopeOfContext(context)}\u0000${context.invocationId}\u0000${context.agentName}`;
}

/** errorCode/errorMessage the way ADK derives them from a thrown model error. */
function describeModelError(message: string): { errorCode: string; errorMessage: string } {
  try {
    const parsed: unknown = JSON.parse(message);
    const error = (parsed as { error?: { code?: unknown; message?: unknown } } | null)?.error;
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a provider's code is a number or a string
    if (error) return { errorCode: String(error.code ?? 'UNKNOWN_ERROR'), errorMessage: typeof error.message === 'string' ? error.message : message };
  } catch {
    // Not JSON: keep the raw message.
  }
  return { errorCode: 'UNKNOWN_ERROR', errorMessage: message };
}
