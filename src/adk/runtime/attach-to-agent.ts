/**
 * Adds the guard's agent-level callbacks to an ADK agent without removing the
 * ones it already has, for agents ADK runs without plugins (`AgentTool`
 * children, runners built without `plugins`).
 *
 * ADK 2.0.0 (`agents/llm_agent.js`, `agents/functions.js`) accepts a callback
 * or an array on every `LlmAgent` callback field and runs an array in order
 * until one returns a value; that value ends the list. So where the guard's
 * callback goes in each list matters:
 * - `beforeModelCallback`: last, so it measures the request as the agent's
 *   own callbacks left it (a callback that answers instead means no model call);
 * - `afterModelCallback`: first, so it reads the provider's real usage even
 *   when a later callback replaces the response;
 * - `afterToolCallback`: last, so the agent's own callbacks always run; the
 *   truncator only cuts a result none of them replaced;
 * - `beforeToolCallback`: first; it only discovers `AgentTool` children
 *   (and marks the call as its app's) and never returns a value.
 */
import {
  isAgentTool,
  isBaseAgent,
  isLlmAgent,
  type BaseAgent,
  type BaseTool,
  type LlmAgent,
  type SingleAfterModelCallback,
  type SingleAfterToolCallback,
  type SingleBeforeModelCallback,
  type SingleBeforeToolCallback,
} from '@google/adk';

/** Marks a callback made by a ContextGuard, of any copy of the package. */
const GUARD_CALLBACK_BRAND = Symbol.for('adk-context-guard.callback');

/** The callbacks one guard adds to an agent. */
export interface GuardAgentCallbackSet {
  readonly beforeModel: SingleBeforeModelCallback;
  readonly afterModel: SingleAfterModelCallback;
  readonly afterTool: SingleAfterToolCallback;
  readonly beforeTool: SingleBeforeToolCallback;
}

/** Brands a guard callback so that any guard recognises it on an agent. */
export function brandGuardCallback<T extends object>(callback: T): T {
  Object.defineProperty(callback, GUARD_CALLBACK_BRAND, { value: true });
  return callback;
}

export function isGuardCallback(value: unknown): boolean {
  return typeof value === 'function' && GUARD_CALLBACK_BRAND in value;
}

function asList<T>(value: T | readonly T[] | undefined): T[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? [...(value as readonly T[])] : [value as T];
}

/** True when a guard (this one or another) already sits in the agent's model callbacks. */
function hasGuardCallbacks(agent: LlmAgent): boolean {
  return asList(agent.beforeModelCallback).some(isGuardCallback);
}

/**
 * Adds `callbacks` to one LLM agent, keeping its own. Returns false (and
 * changes nothing) when a guard's callbacks are already there: attaching twice
 * would only repeat work. Inside another app's `AgentTool` call the callbacks
 * there hand over to that app's guard (adk/runtime/agent-tool-caller.ts).
 */
export function addGuardCallbacks(agent: LlmAgent, callbacks: GuardAgentCallbackSet): boolean {
  if (hasGuardCallbacks(agent)) return false;
  agent.beforeModelCallback = [...asList(agent.beforeModelCallback), callbacks.beforeModel];
  agent.afterModelCallback = [callbacks.afterModel, ...asList(agent.afterModelCallback)];
  agent.afterToolCallback = [...asList(agent.afterToolCallback), callbacks.afterTool];
  agent.beforeToolCallback = [callbacks.beforeTool, ...asList(agent.beforeToolCallback)];
  return true;
}

/** @throws TypeError for anything but an agent (a `Workflow` is a node): attachTo walks it first. */
function assertAgent(value: unknown): void {
  if (!isBaseAgent(value))
    throw new TypeError(
      'attachTo takes an ADK agent (a Workflow is not one): attach each LlmAgent, or use the plugin.',
    );
}

/**
 * Visits `root` and every agent below it through `subAgents` (transfer
 * targets and workflow members). `AgentTool` children are not walked here:
 * tools can come from toolsets resolved per call, so they are found when
 * called (see `agentToolChild`).
 */
export function forEachLlmAgent(root: BaseAgent, visit: (agent: LlmAgent) => void): void {
  assertAgent(root);
  const seen = new Set<BaseAgent>();
  const stack: BaseAgent[] = [root];
  while (stack.length > 0) {
    const agent = stack.pop()!;
    if (seen.has(agent)) continue;
    seen.add(agent);
    if (isLlmAgent(agent)) visit(agent);
    stack.push(...(agent.subAgents ?? []));
  }
}

/**
 * The agent an `AgentTool` runs, or undefined for any other tool. ADK 2.0.0
 * types the field as private, but it is the agent the tool's Runner runs.
 */
export function agentToolChild(tool: BaseTool | undefined): BaseAgent | undefined {
  if (tool === undefined || !isAgentTool(tool)) return undefined;
  const agent: unknown = (tool as unknown as { readonly agent?: unknown }).agent;
  return isBaseAgent(agent) ? agent : undefined;
}
