/**
 * The agent's own `afterToolCallback`s, run by the guard's plugin hook before it cuts a result. ADK 2.0.0
 * (`agents/functions.js`, `handleFunctionCallList`) skips every agent after-tool callback once a plugin returns a
 * value, so a result the guard cut went to the model, to the session and to its artifact without the agent's own
 * work on it: a redaction of personal data, added citations (the twentieth outside trial: 244 of 250 requests
 * carried the data the agent's callback removes). They run here as ADK would run them (in order, the first value
 * returned wins), and the guard then cuts what they returned. The guard's own branded callbacks are left out.
 */
import type { BaseAgent } from '@google/adk';
import { isGuardCallback } from '../runtime/attach-to-agent.js';
import { asToolResult, type PluginAfterToolParams } from './tool-output-callback.js';
import type { GuardToolTruncators } from './output-truncation.js';

type OwnAfterTool = (params: {
  tool: PluginAfterToolParams['tool'];
  args: PluginAfterToolParams['toolArgs'];
  context: PluginAfterToolParams['toolContext'];
  response: PluginAfterToolParams['result'];
}) => unknown;

/** The agent's after-tool callbacks other than a guard's, in ADK's order; none for an agent without them. */
function ownAfterToolCallbacks(agent: BaseAgent | undefined): readonly OwnAfterTool[] {
  const callbacks: unknown = (agent as { canonicalAfterToolCallbacks?: unknown } | undefined)
    ?.canonicalAfterToolCallbacks;
  if (!Array.isArray(callbacks)) return [];
  return callbacks.filter(
    (callback): callback is OwnAfterTool => typeof callback === 'function' && !isGuardCallback(callback),
  );
}

/**
 * What the callbacks make of the result: the first value one returns (ADK's rule), else `undefined`. Typed as ADK
 * types a result; at run time any value, which ADK (and the truncator) wraps as `{ result }` after the callbacks.
 */
async function runOwnAfterTool(
  callbacks: readonly OwnAfterTool[],
  params: PluginAfterToolParams,
): Promise<PluginAfterToolParams['result'] | undefined> {
  for (const callback of callbacks) {
    const altered = await runOne(callback, params);
    if (altered) return altered as PluginAfterToolParams['result'];
  }
  return undefined;
}

/**
 * One callback; what it throws goes on, named as the agent's: ADK reports it as an error of the guard's plugin, the
 * caller of the callback (review 16: the app's own failing redaction read as the guard's failure).
 */
async function runOne(callback: OwnAfterTool, params: PluginAfterToolParams): Promise<unknown> {
  try {
    return await callback({
      tool: params.tool,
      args: params.toolArgs,
      context: params.toolContext,
      response: params.result,
    });
  } catch (error) {
    const agent = params.toolContext.agentName;
    throw new Error(
      `agent '${agent}': its own afterToolCallback threw on tool '${params.tool.name}' (ContextGuard runs an agent's after-tool callbacks before it cuts a large result, as ADK skips them once a plugin answers): ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}

/** The plugin's after-tool work: the cut, after the agent's own callbacks when it cuts (ADK then skips them). */
export async function cutAfterOwnCallbacks(
  params: PluginAfterToolParams,
  truncators: GuardToolTruncators,
): Promise<Record<string, unknown> | undefined> {
  const own = ownAfterToolCallbacks(params.toolContext.invocationContext.agent);
  if (own.length === 0 || !truncators.wouldCut(params)) return truncators.plugin(params);
  const result = (await runOwnAfterTool(own, params)) ?? params.result;
  // A value whatever is cut: `undefined` would make ADK run the agent's callbacks a second time.
  return (await truncators.plugin({ ...params, result })) ?? asToolResult(result);
}
