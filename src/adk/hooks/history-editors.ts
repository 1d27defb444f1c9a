/**
 * Whether anything could have edited the contents ADK built before the guard's plugin callback sees them:
 * decides, once per call, if the measure cache must compare every content (estimate/content-measure-cache.ts).
 *
 * ADK 2.0.0 builds the contents from the session's append-only events with its default request processors
 * (deterministic), then runs the plugins' `beforeModelCallback`s in registration order, then the agent's own.
 * So the guard, as a plugin, sees ADK's own contents unless a plugin registered before it defines a
 * `beforeModelCallback`, or an agent of the tree has request processors other than ADK's defaults (a
 * `contextCompactors` entry adds one: thought pruning, anchored and truncating compaction rewrite or remove
 * older events; the token-based and agent-controlled compactors only append a summary event, which the
 * contents then start with, so they count as not editing).
 * What remains (a new compaction summary, function responses ADK moves next to their calls, a shorter
 * history) changes the first content, the last one known, or the length, and a database reloading events in
 * another order changes the order of the session's events: the cache then compares every content.
 * As an agent callback the guard runs after other callbacks: `attached` is always exact.
 */
import {
  AgentControlledContextCompactor,
  BasePlugin,
  LlmAgent,
  TokenBasedContextCompactor,
  isLlmAgent,
  type BaseAgent,
  type InvocationContext,
} from '@google/adk';
import { isGuardCallback } from '../runtime/attach-to-agent.js';

let defaults: ReadonlySet<unknown> | undefined;

/** ADK's default request processors (module singletons), as a plain agent gets them. */
function defaultProcessors(): ReadonlySet<unknown> {
  return (defaults ??= new Set(new LlmAgent({ name: 'context_guard_probe' }).requestProcessors));
}

/**
 * The Runner's plugins before and after `guard`, in registration order; undefined when they cannot be read
 * (`plugins` is private in ADK's types) or the guard is not among them: unknown, so anything may edit.
 */
function pluginsAround(
  invocationContext: InvocationContext,
  guard: BasePlugin,
): { readonly before: unknown[]; readonly after: unknown[] } | undefined {
  const plugins = (invocationContext.pluginManager as unknown as { plugins?: unknown }).plugins;
  if (!(plugins instanceof Set)) return undefined;
  const all: unknown[] = [...plugins];
  const at = all.indexOf(guard);
  return at < 0 ? undefined : { before: all.slice(0, at), after: all.slice(at + 1) };
}

/** Whether `plugin` could edit a request: a `beforeModelCallback` of its own, or not a plugin ADK's types know. */
function mayEditRequest(plugin: unknown): boolean {
  return !(plugin instanceof BasePlugin) || definesBeforeModel(plugin);
}

/** True when something before `guard` could have edited the history (or when it cannot be told). */
export function historyMayBeEdited(invocationContext: InvocationContext, guard: BasePlugin): boolean {
  const around = pluginsAround(invocationContext, guard);
  if (!around || around.before.some(mayEditRequest)) return true;
  const agent = invocationContext.agent;
  return !agent || agentsMayEdit(agent.rootAgent);
}

/**
 * True when something after `guard` could edit the request it leaves (or when it cannot be told): a plugin
 * registered after it with a `beforeModelCallback`, or the agent's own before-model callbacks, which ADK runs
 * after the plugins'. A retry of a rejected request cannot keep an edit they make in place
 * (adk/hooks/retry-rejected.ts), so a request the guard sends on a guess must not depend on one.
 */
export function requestMayBeEditedAfter(invocationContext: InvocationContext, guard: BasePlugin): boolean {
  const around = pluginsAround(invocationContext, guard);
  const agent = invocationContext.agent;
  if (!around || around.after.some(mayEditRequest) || !agent || !isLlmAgent(agent)) return true;
  // A guard's own callbacks on the agent (attached to an AgentTool child, say) edit nothing after it.
  return agent.canonicalBeforeModelCallbacks.some((callback) => !isGuardCallback(callback));
}

/**
 * The same for the guard run as one of the agent's own callbacks (attached, or an AgentTool child's): plugins ran
 * before it, so what can edit after it is a callback of the agent's after the guard's.
 */
export function requestMayBeEditedAfterCallback(invocationContext: InvocationContext): boolean {
  const agent = invocationContext.agent;
  if (!agent || !isLlmAgent(agent)) return true;
  const callbacks = agent.canonicalBeforeModelCallbacks;
  const at = callbacks.findIndex(isGuardCallback);
  return at < 0 || callbacks.slice(at + 1).some((callback) => !isGuardCallback(callback));
}

/** Whether `plugin`'s class overrides BasePlugin's `beforeModelCallback` (which does nothing). */
function definesBeforeModel(plugin: BasePlugin): boolean {
  const own: unknown = Reflect.get(plugin, 'beforeModelCallback');
  return own !== Reflect.get(BasePlugin.prototype, 'beforeModelCallback');
}

/**
 * True when an agent of the tree has request processors other than ADK's defaults. The whole tree, not
 * the calling agent alone: compaction is session-global (another agent's thought pruning rewrites this one's events).
 */
function agentsMayEdit(agent: BaseAgent, depth = 0): boolean {
  if (depth > 64) return true; // a cycle, say: cannot be told
  if (isLlmAgent(agent) && agent.requestProcessors.some((processor) => !isDefault(processor))) return true;
  return agent.subAgents.some((child) => agentsMayEdit(child, depth + 1));
}

function isDefault(processor: unknown): boolean {
  try {
    return defaultProcessors().has(processor) || onlyAppendsSummaries(processor);
  } catch {
    return false; // the defaults could not be read: exact
  }
}

/**
 * ADK's compactor processor (`context_compactor_request_processor.js`, not exported) whose compactors
 * only push a summary event (`token_based_context_compactor.js`, `agent_controlled_context_compactor.js`):
 * the contents then begin with that summary, a change the cheap check sees (the first content differs).
 */
function onlyAppendsSummaries(processor: unknown): boolean {
  const compactors: unknown = Reflect.get(Object(processor), 'compactors');
  return (
    Array.isArray(compactors) &&
    compactors.length > 0 &&
    compactors.every(
      (compactor) =>
        compactor instanceof TokenBasedContextCompactor || compactor instanceof AgentControlledContextCompactor,
    )
  );
}
