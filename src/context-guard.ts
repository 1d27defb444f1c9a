/**
 * ContextGuard, the ADK plugin: a thin shell over the pure core (guard/guard-request.ts).
 * Each hook reads ADK's objects into plain input (adk/read-request.ts), runs the core, and
 * applies its result (adk/apply-result.ts); the collaborators in adk/ hold the rest (the
 * per-session queue, pins, windows, the compaction reporter). The hooks are listed in
 * docs/design.md ("Where it sits").
 *
 * Register it once on a `Runner` or `App`; it serves every agent, each with its own policy
 * and state keys. It attaches itself to `AgentTool` children (which ADK runs without
 * plugins) when they are first called; for a Runner without plugins, `guard.attachTo(agent)`.
 */
import {
  BasePlugin,
  getLogger,
  type BaseAgent,
  type BaseSessionService,
  type BaseTool,
  type Context,
  type LlmRequest,
  type LlmResponse,
} from '@google/adk';
import type {
  Session,
  SingleAfterModelCallback,
  SingleAfterToolCallback,
  SingleBeforeModelCallback,
  State,
} from '@google/adk';
import { CompactionHooks, compactionTrigger } from './adk/compaction-hooks.js';
import { addGuardCallbacks, forEachLlmAgent, type GuardAgentCallbackSet } from './adk/attach-to-agent.js';
import { attachToAgentToolChild, guardCallbackSet } from './adk/guard-callback-set.js';
import { guardToolTruncators, type GuardToolTruncators } from './adk/guard-tool-truncation.js';
import type { PluginAfterToolParams } from './adk/tool-output-callback.js';
import { scopeOfContext, scopeOfRef, sessionIdPrefix, type SessionRef } from './adk/session-scope.js';
import { KeyedQueue } from './adk/keyed-queue.js';
import { PreparedSummaries } from './adk/prepared-summaries.js';
import { GuardPins } from './adk/guard-pins.js';
import { ModelWindowResolver } from './adk/model-window-resolver.js';
import { CompactionReporter, type CompactionListener } from './adk/compaction-reporter.js';
import { readRequest, readStoredState, type RequestReaders } from './adk/read-request.js';
import { applyResult, type ResultAppliers } from './adk/apply-result.js';
import { modelErrorEvent } from './adk/model-error-event.js';
import { recordResponse } from './adk/record-response.js';
import { appendStateEvent } from './adk/state-event.js';
import { guardTokenizer } from './adk/guard-tokenizer.js';
import { PolicyCache } from './adk/policy-cache.js';
import { WarnOnce } from './adk/warn-once.js';
import { ContextGuardPinError } from './errors.js';
import { ALL_AGENTS, type AddPinResult, type Pin, type PinSource } from './memory/pins.js';
import { ContentMeasureCache } from './estimate/content-measure-cache.js';
import { TokenMemo } from './estimate/estimate-request.js';
import { guardRequest } from './guard/guard-request.js';
import { agentStatus, guardedAgents, type AgentContextStatus } from './status/guard-status.js';
import { validateOptions, type ContextGuardOptions, type GuardLogger, type ResolvedPolicy } from './options.js';
import { compactionRequestDelta } from './state/compaction-request.js';
import { stateKeysFor } from './state/state-keys.js';
import { recordPreparedSummary } from './telemetry/guard-telemetry.js';

const CONTEXT_GUARD_BRAND = Symbol.for('adk-context-guard.ContextGuard');
const LOG_PREFIX = '[context_guard]';

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

/** What `status()` reads: a session's state, and (a `Session` has them) its app, user and id. */
export type StatusSession =
  | { readonly state: Readonly<Record<string, unknown>> }
  | (SessionRef & { readonly state: Readonly<Record<string, unknown>> });

export class ContextGuard extends BasePlugin {
  readonly [CONTEXT_GUARD_BRAND] = true;
  private readonly options: ContextGuardOptions;
  private readonly logger: GuardLogger;
  private readonly policies: PolicyCache;
  /** Requests already handled, so the plugin and agent-callback forms never both apply. */
  private readonly handled = new WeakSet<LlmRequest>();
  /** The collaborators of the shell: the reader's and the applier's, the window resolver and the reporter. */
  private readonly parts: RequestReaders & ResultAppliers & { readonly reporter: CompactionReporter };
  private readonly truncators: GuardToolTruncators;
  private agentCallbackSet: GuardAgentCallbackSet | undefined;

  /** @throws ContextGuardConfigError when an option is invalid. */
  constructor(options: ContextGuardOptions = {}) {
    validateOptions(options);
    super(options.name ?? 'context_guard');
    this.options = options;
    const logger = (this.logger = options.logger ?? getLogger());
    this.policies = new PolicyCache(options);
    const tokenizer = guardTokenizer(options.tokenizer, logger);
    const memos = {
      measures: new ContentMeasureCache(),
      fixedMemo: new TokenMemo(),
      maskedMemo: new TokenMemo(20_000),
    };
    const collaborators = {
      windows: new ModelWindowResolver(options, logger),
      queue: new KeyedQueue(),
      prepared: new PreparedSummaries(logger, recordPreparedSummary),
      reporter: new CompactionReporter(options, logger),
    };
    this.parts = {
      tokenizer,
      logger,
      ...memos,
      ...collaborators,
      pins: new GuardPins(tokenizer, logger, new WarnOnce(logger)),
    };
    this.truncators = guardToolTruncators((agentName) => this.policyFor(agentName), logger, options.onToolTruncation);
  }

  /**
   * Calls `listener` with the record of every compaction (after it is stored).
   * Returns a function that removes it. A listener that throws is logged and ignored.
   */
  onCompaction(listener: CompactionListener): () => void {
    return this.parts.reporter.listen(listener);
  }

  /**
   * Token status of every guarded agent of a session (or of one agent), read
   * from the session's state: last real count, current estimate, window,
   * threshold, percent used, turns left at the average turn size, compactions
   * and the last compaction's record. An agent with no guard state in the
   * session (a misspelt name, or one that has not run) gets `known: false`
   * rather than an error: status calls sit in monitoring paths.
   */
  status(session: StatusSession): AgentContextStatus[];
  status(session: StatusSession, agentName: string): AgentContextStatus;
  status(session: StatusSession, agentName?: string): AgentContextStatus | AgentContextStatus[] {
    // `preparing` needs the session's identity (a `Session` has it); state alone cannot tell.
    const scope = 'appName' in session ? scopeOfRef(session) : undefined;
    const of = (name: string): AgentContextStatus =>
      agentStatus(session.state, name, scope !== undefined && this.parts.prepared.preparing(`${scope}\u0000${name}`));
    if (agentName !== undefined) return of(agentName);
    return guardedAgents(session.state).map(of);
  }

  /** The resolved policy of an agent (defaults, then global options, then the agent's own). */
  policyFor(agentName: string): ResolvedPolicy {
    return this.policies.of(agentName);
  }

  /**
   * Pins `text` for an agent (or every agent, the default) in a stored session:
   * it is carried verbatim in every later request and never summarized away.
   * The pin is written as a state-only event through the session service.
   * @throws ContextGuardPinError when the pins would exceed the agent's cap.
   */
  async pin(params: {
    sessionService: BaseSessionService;
    session: Session;
    text: string;
    agentName?: string;
  }): Promise<Pin> {
    const agentName = params.agentName ?? ALL_AGENTS;
    const state = params.session.state;
    const result = this.parts.pins.addToRecord(
      state,
      agentName,
      params.text,
      this.parts.windows.pinCap(this.policyFor(agentName), agentName, state),
    );
    if (!result.ok) throw new ContextGuardPinError(agentName, result.tokens, result.cap);
    await appendStateEvent(params.sessionService, params.session, 'pin', {
      [stateKeysFor(agentName).pins]: result.pins,
    });
    return result.pin;
  }

  /**
   * Makes the agent's next model call compact whatever its estimate says (the
   * `/compact` of a chat UI). Written as a state-only event; nothing is
   * summarized until that call, which is the only place the request exists.
   */
  async requestCompaction(params: {
    sessionService: BaseSessionService;
    session: Session;
    agentName: string;
  }): Promise<void> {
    await appendStateEvent(
      params.sessionService,
      params.session,
      'compact',
      compactionRequestDelta(params.session.state, params.agentName, Date.now()),
    );
  }

  /** Adds a pin through a callback or tool context's state (used by `pinContextTool`). */
  pinInState(state: State, agentName: string, text: string, source: PinSource, window?: number): AddPinResult {
    return this.parts.pins.addInState(
      state,
      agentName,
      text,
      source,
      this.parts.windows.pinCap(this.policyFor(agentName), agentName, state.toRecord(), window),
    );
  }

  /**
   * Releases what this process caches about a session (per-content measures,
   * bounded in any case: least recently used sessions go first). Call it when a
   * session ends or is deleted; correctness never depends on the cache.
   * Pass the `Session` (or `{ appName, userId, sessionId }`); a bare session id
   * releases that id for every app and user.
   */
  forgetSession(session: SessionRef | string): void {
    const prefix = typeof session === 'string' ? sessionIdPrefix(session) : `${scopeOfRef(session)}\u0000`;
    this.parts.measures.forgetPrefix(prefix);
    this.parts.prepared.forgetPrefix(prefix);
  }

  /**
   * The guard's callbacks as `LlmAgent` config fields. Spread into a config they
   * replace the agent's own callbacks of the same names (or are replaced by
   * them): use `attachTo(agent)`, which keeps both.
   * @deprecated Use `guard.attachTo(agent)`.
   */
  agentCallbacks(): ContextGuardAgentCallbacks {
    const set = this.callbackSet();
    return {
      beforeModelCallback: set.beforeModel,
      afterModelCallback: set.afterModel,
      afterToolCallback: set.afterTool,
    };
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
    attachToAgentToolChild(tool, (child) => this.attachTo(child), this.logger);
    return undefined;
  }

  /** One set of agent-level callbacks per guard, branded so any guard recognises them. */
  private callbackSet(): GuardAgentCallbackSet {
    return (this.agentCallbackSet ??= guardCallbackSet({
      beforeModel: (context, request) => this.guard(context, request),
      afterModel: (context, response) =>
        void this.afterModelCallback({ callbackContext: context, llmResponse: response }),
      afterTool: this.truncators.agent,
      beforeTool: (tool) => this.beforeToolCallback({ tool }),
    }));
  }

  override async afterToolCallback(params: PluginAfterToolParams): Promise<Record<string, unknown> | undefined> {
    return this.truncators.plugin(params);
  }

  override async beforeModelCallback({
    callbackContext,
    llmRequest,
  }: {
    callbackContext: Context;
    llmRequest: LlmRequest;
  }): Promise<LlmResponse | undefined> {
    await this.guard(callbackContext, llmRequest);
    return undefined;
  }

  override async afterModelCallback({
    callbackContext,
    llmResponse,
  }: {
    callbackContext: Context;
    llmResponse: LlmResponse;
  }): Promise<LlmResponse | undefined> {
    try {
      if (this.policyFor(callbackContext.agentName).enabled)
        recordResponse(callbackContext, llmResponse, this.options.prices, this.parts.reporter);
    } catch (error) {
      this.logger.error(`${LOG_PREFIX} failed to record usage; calibration skipped for this call.`, error);
    }
    return undefined;
  }

  override async onModelErrorCallback({
    callbackContext,
    llmRequest,
    error,
  }: {
    callbackContext: Context;
    llmRequest: LlmRequest;
    error: Error;
  }): Promise<LlmResponse | undefined> {
    try {
      if (!this.policyFor(callbackContext.agentName).enabled) return undefined;
      return modelErrorEvent(callbackContext, llmRequest, error, this.parts);
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
    await this.parts.queue.run(key, () => this.guardInOrder(context, request, key));
  }

  private async guardInOrder(context: Context, request: LlmRequest, key: string): Promise<void> {
    let hooks: CompactionHooks | undefined;
    let compacted = false;
    try {
      const policy = this.policyFor(context.agentName);
      if (!policy.enabled) return;
      const stored = readStoredState(context, this.logger);
      hooks = new CompactionHooks(context.invocationContext, compactionTrigger(stored.requested), this.logger, key);
      const read = readRequest(context, request, key, policy, stored, hooks, this.parts);
      const result = await guardRequest(read.input);
      // A masking is a compaction too, for other plugins' hooks (made without a model call).
      compacted = result.masking !== undefined || result.compaction !== undefined;
      await applyResult(context, request, key, read, result, this.parts);
    } catch (error) {
      // Fail open: the request goes as ADK built it, the turn is not failed by the guard.
      this.logger.error(
        `${LOG_PREFIX} agent '${context.agentName}': guard failed; the request is sent unchanged.`,
        error,
      );
    } finally {
      // Other plugins' compaction hooks (logged and ignored if they throw).
      await hooks?.settle(compacted);
    }
  }
}
