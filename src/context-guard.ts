/**
 * ContextGuard, the ADK plugin: a thin shell over the pure core (pipeline/guard-request.ts). Each hook
 * hands over to a collaborator in adk/ (docs/design.md, "Where it sits"): the before-model
 * pipeline, the hooks after the model call, the session actions, the tool truncators.
 */
import { BasePlugin, getLogger, type BaseAgent, type BaseTool, type Context, type Event } from '@google/adk';
import type { InvocationContext } from '@google/adk';
import type { LlmResponse, SingleAfterModelCallback, SingleAfterToolCallback } from '@google/adk';
import type { SingleBeforeModelCallback, State } from '@google/adk';
import { addGuardCallbacks, forEachLlmAgent, type GuardAgentCallbackSet } from './adk/runtime/attach-to-agent.js';
import { BeforeModelGuard } from './adk/hooks/before-model-guard.js';
import type { CompactionListener } from './adk/hooks/compaction-reporter.js';
import { attachToAgentToolChild, guardCallbackSet } from './adk/hooks/agent-callbacks.js';
import { guardParts, type GuardParts } from './adk/hooks/guard-parts.js';
import { GuardSessionActions, type StatusSession, type StoredSession } from './adk/session-actions.js';
import { guardToolTruncators, type GuardToolTruncators } from './adk/tools/output-truncation.js';
import { ModelResponseHooks } from './adk/hooks/model-response-hooks.js';
import { PolicyCache } from './adk/runtime/policy-cache.js';
import type { SessionRef } from './adk/runtime/session-scope.js';
import { UnmatchedAgentsCheck } from './adk/hooks/unmatched-agents-check.js';
import { checkRunStart } from './adk/hooks/run-start-checks.js';
import type { PluginAfterToolParams } from './adk/tools/tool-output-callback.js';
import { isGivenStoredAnswer, StoredAnswers } from './adk/tools/stored-answers.js';
import { cutAfterOwnCallbacks } from './adk/tools/own-after-tool.js';
import type { AddPinResult, Pin, PinSource } from './memory/pins.js';
import type { AgentContextStatus } from './status/context-status.js';
import type { ContextGuardOptions, GuardLogger, ResolvedPolicy } from './options.js';
import { validateOptions } from './validation/validate-options.js';
import { inSessionLog, sessionLogger } from './logging/session-log.js';
import { CONTEXT_GUARD_BRAND, hasGuardBrand } from './adk/runtime/guard-brand.js';

export type { StatusSession } from './adk/session-actions.js';

/** True for a `ContextGuard`, even one from another copy of the package. */
export function isContextGuard(value: unknown): value is ContextGuard {
  return hasGuardBrand(value);
}

/** The agent-level form of the guard, for `LlmAgent({ beforeModelCallback, afterModelCallback })`. */
export interface ContextGuardAgentCallbacks {
  readonly beforeModelCallback: SingleBeforeModelCallback;
  readonly afterModelCallback: SingleAfterModelCallback;
  readonly afterToolCallback: SingleAfterToolCallback;
}

/**
 * The ADK plugin that keeps every agent of a `Runner` or `App` inside its model's context window:
 * register it once in `plugins`, or `guard.attachTo(agent)` where plugins do not run. Options:
 * docs/configuration.md.
 */
export class ContextGuard extends BasePlugin {
  readonly [CONTEXT_GUARD_BRAND] = true;
  private readonly logger: GuardLogger;
  private readonly policies: PolicyCache;
  /** The collaborators of the shell: the reader's and the applier's, the window resolver and the reporter. */
  private readonly parts: GuardParts;
  private readonly truncators: GuardToolTruncators;
  private readonly beforeModel: BeforeModelGuard;
  private readonly sessions: GuardSessionActions;
  private agentCallbackSet: GuardAgentCallbackSet | undefined;
  private readonly agentNames: UnmatchedAgentsCheck;
  private readonly responses: ModelResponseHooks;
  private readonly storedAnswers: StoredAnswers;

  /** @throws ContextGuardConfigError when an option is invalid. */
  constructor(options: ContextGuardOptions = {}) {
    validateOptions(options);
    super(options.name ?? 'context_guard');
    const logger = (this.logger = sessionLogger(options.logger ?? getLogger()));
    const policies = (this.policies = new PolicyCache(options));
    this.parts = guardParts(options, logger);
    this.truncators = guardToolTruncators(
      (agentName) => policies.of(agentName),
      logger,
      options.onToolTruncation,
      options.artifactTimeoutMs,
    );
    this.beforeModel = new BeforeModelGuard(this.parts, policies);
    this.sessions = new GuardSessionActions(this.parts, policies);
    this.responses = new ModelResponseHooks(this.parts, policies, logger);
    this.agentNames = new UnmatchedAgentsCheck(options, logger);
    this.storedAnswers = new StoredAnswers((agentName) => policies.of(agentName), logger);
  }

  /**
   * Calls `listener` with the record of every compaction (after it is stored).
   * Returns a function that removes it. A listener that throws is logged and ignored.
   */
  onCompaction(listener: CompactionListener): () => void {
    return this.parts.reporter.listen(listener);
  }

  /**
   * Token status of every guarded agent of a session (or of one agent), from its state and events
   * (`countsFrom`); an agent with no guard state gets `known: false`. Fields: docs/observability.md. Never throws:
   * anything but a session (`undefined` from a `getSession` that found none) gets a warning and `[]` (or `known: false`).
   */
  status(session: StatusSession | undefined): AgentContextStatus[];
  status(session: StatusSession | undefined, agentName: string): AgentContextStatus;
  status(session: StatusSession | undefined, agentName?: string): AgentContextStatus | AgentContextStatus[] {
    return this.sessions.status(session, agentName);
  }

  /** The resolved policy of an agent (defaults, then global options, then the agent's own). */
  policyFor(agentName: string): ResolvedPolicy {
    return this.policies.of(agentName);
  }

  /**
   * Pins `text` for an agent (or every agent, the default) in a stored session by a state-only
   * event: carried verbatim in every later request (docs/memory.md).
   * @throws ContextGuardPinError over the agent's cap; TypeError, before writing, for a wrong argument.
   */
  async pin(params: StoredSession & { text: string; agentName?: string }): Promise<Pin> {
    return this.sessions.pin(params);
  }

  /**
   * Makes the agent's next model call compact, whatever its estimate (a chat's `/compact`), by a state-only event.
   * @throws TypeError, before writing, for a `session`, `sessionService` or `agentName` of the wrong kind.
   */
  async requestCompaction(params: StoredSession & { agentName: string }): Promise<void> {
    return this.sessions.requestCompaction(params);
  }

  /** Adds a pin through a callback or tool context's state (used by `pinContextTool`). */
  pinInState(state: State, agentName: string, text: string, source: PinSource, window?: number): AddPinResult {
    return this.sessions.pinInState(state, agentName, text, source, window);
  }

  /**
   * Releases what this process caches about a session (the `Session`, or a bare session id for
   * every app and user) when it ends; correctness never depends on it. Never throws (see docs).
   */
  forgetSession(session: SessionRef | string): void {
    this.sessions.forgetSession(session);
  }

  /**
   * The guard's callbacks as `LlmAgent` config fields (they replace the agent's own of those names).
   * @deprecated Use `guard.attachTo(agent)`, which keeps both.
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
   * called; a child shared by two apps is guarded, on each call, by the guard
   * of the app that called it. Returns `agent`; throws a TypeError for a Workflow.
   */
  attachTo<T extends BaseAgent>(agent: T): T {
    forEachLlmAgent(agent, (each) => addGuardCallbacks(each, this.callbackSet()));
    this.agentNames.check(agent);
    return agent;
  }

  /** Warns once about an `agents` entry that names no agent of the app being run, and about a live run. */
  override async beforeRunCallback({
    invocationContext,
  }: {
    invocationContext: InvocationContext;
  }): Promise<undefined> {
    checkRunStart(invocationContext, this.agentNames, this.parts.warnings);
    return undefined;
  }

  /**
   * Before ADK runs an `AgentTool` child in its own Runner, without plugins: attaches the guard to
   * the child and marks the call as this app's, so that a child shared by two apps gets the
   * calling app's guard and policy (adk/runtime/agent-tool-caller.ts). A repeated call of a
   * read-only tool whose earlier result was offloaded or masked is answered from that result
   * (adk/tools/stored-answers.ts). A `ToolNode`'s tool has no agent (`agentName` throws): only its child is attached.
   */
  override async beforeToolCallback({
    tool,
    toolArgs,
    toolContext,
  }: {
    tool: BaseTool;
    toolArgs?: Record<string, unknown>;
    toolContext: Context;
  }): Promise<Record<string, unknown> | undefined> {
    return inSessionLog(toolContext, () => {
      attachToAgentToolChild(tool, toolContext, this.callbackSet(), (child) => this.attachTo(child), this.logger);
      if (!toolContext.invocationContext.agent) return Promise.resolve(undefined);
      return this.storedAnswers.answer(tool, toolArgs, toolContext);
    });
  }

  /** One set of agent-level callbacks per guard, branded so any guard recognises them. */
  private callbackSet(): GuardAgentCallbackSet {
    return (this.agentCallbackSet ??= guardCallbackSet({
      beforeModel: (context, request) => inSessionLog(context, () => this.beforeModel.guard(context, request)),
      afterModel: (context, response) =>
        void this.afterModelCallback({ callbackContext: context, llmResponse: response }),
      afterTool: async (params) =>
        isGivenStoredAnswer(params.response)
          ? undefined
          : inSessionLog(params.context, () => this.truncators.agent(params)),
      beforeTool: (tool, toolContext, toolArgs) => this.beforeToolCallback({ tool, toolArgs, toolContext }),
    }));
  }

  override async afterToolCallback(params: PluginAfterToolParams): Promise<Record<string, unknown> | undefined> {
    // A stored answer was cut, if at all, when first stored; cutting it again would offload it again. No agent: above.
    if (isGivenStoredAnswer(params.result) || !params.toolContext.invocationContext.agent) return undefined;
    return inSessionLog(params.toolContext, () => cutAfterOwnCallbacks(params, this.truncators));
  }

  override async beforeModelCallback({
    callbackContext,
    llmRequest,
  }: Parameters<BasePlugin['beforeModelCallback']>[0]): Promise<LlmResponse | undefined> {
    await inSessionLog(callbackContext, () => this.beforeModel.guardAsPlugin(callbackContext, llmRequest, this));
    return undefined;
  }

  override async afterModelCallback({
    callbackContext,
    llmResponse,
  }: Parameters<BasePlugin['afterModelCallback']>[0]): Promise<LlmResponse | undefined> {
    inSessionLog(callbackContext, () => this.responses.afterModel(callbackContext, llmResponse));
    return undefined;
  }

  /** An event: a call's records if a callback answered it; across A2A, no cycle and records home (adk/hooks/a2a-events.ts). */
  override async onEventCallback(params: { invocationContext: InvocationContext; event: Event }): Promise<undefined> {
    return inSessionLog(params, () => this.responses.eventArrived(params.invocationContext, params.event));
  }

  override async onModelErrorCallback({
    callbackContext,
    llmRequest,
    error,
  }: Parameters<BasePlugin['onModelErrorCallback']>[0]): Promise<LlmResponse | undefined> {
    return inSessionLog(callbackContext, () => this.responses.onModelError(callbackContext, llmRequest, error));
  }
}
