/**
 * The guard's agent-level callbacks (for agents ADK runs without plugins), made from its
 * before-model, after-model, after-tool and before-tool work, each branded so any guard
 * recognises them (see adk/runtime/attach-to-agent.ts).
 *
 * The callbacks on a shared agent are those of the first guard that attached; inside another
 * app's `AgentTool` call they hand over to that app's guard (see adk/runtime/agent-tool-caller.ts).
 */
import type { BaseAgent, BaseTool, Context, LlmRequest, LlmResponse } from '@google/adk';
import type { GuardLogger } from '../../options.js';
import { currentCaller, markToolCall, wrapAgentToolRun } from '../runtime/agent-tool-caller.js';
import { agentToolChild, brandGuardCallback, type GuardAgentCallbackSet } from '../runtime/attach-to-agent.js';
import type { OffloadingToolOutputTruncator } from '../tools/offload-tool-output.js';
import { logFailure } from '../../logging/failure-log.js';
import { LOG_PREFIX } from '../../logging/log-prefix.js';

/** The work each callback does; none of it throws. */
interface GuardWork {
  readonly beforeModel: (context: Context, request: LlmRequest) => Promise<void>;
  readonly afterModel: (context: Context, response: LlmResponse) => void;
  readonly afterTool: OffloadingToolOutputTruncator;
  readonly beforeTool: (
    tool: BaseTool,
    context: Context,
    args: Record<string, unknown>,
  ) => Promise<Record<string, unknown> | undefined>;
}

type AfterToolParams = Parameters<OffloadingToolOutputTruncator>[0];

export function guardCallbackSet(work: GuardWork): GuardAgentCallbackSet {
  /** The calling app's guard callbacks when they are another guard's, else undefined (this guard acts). */
  const other = (): GuardAgentCallbackSet | undefined => {
    const caller = currentCaller()?.callbacks;
    return caller === set ? undefined : caller;
  };
  const set: GuardAgentCallbackSet = {
    beforeModel: brandGuardCallback(async (params: { context: Context; request: LlmRequest }) => {
      const caller = other();
      if (caller) return caller.beforeModel(params);
      await work.beforeModel(params.context, params.request);
      return undefined;
    }),
    afterModel: brandGuardCallback(async (params: { context: Context; response: LlmResponse }) => {
      const caller = other();
      if (caller) return caller.afterModel(params);
      work.afterModel(params.context, params.response);
      return undefined;
    }),
    afterTool: brandGuardCallback(async (params: AfterToolParams) => {
      const caller = other();
      return caller ? caller.afterTool(params) : work.afterTool(params);
    }),
    beforeTool: brandGuardCallback(
      async (params: { tool: BaseTool; args: Record<string, unknown>; context: Context }) => {
        const caller = other();
        return caller ? caller.beforeTool(params) : work.beforeTool(params.tool, params.context, params.args);
      },
    ),
  };
  return set;
}

/**
 * Before ADK runs an `AgentTool` child in its own Runner, without plugins: attaches the guard to
 * the child and marks the call as this guard's, so the child gets this app's policy; never throws.
 */
export function attachToAgentToolChild(
  tool: BaseTool,
  toolContext: Context,
  callbacks: GuardAgentCallbackSet,
  attach: (child: BaseAgent) => void,
  logger: GuardLogger,
): void {
  let child: BaseAgent | undefined;
  try {
    child = agentToolChild(tool);
    if (child) attach(child);
  } catch (error) {
    logFailure(
      logger,
      'error',
      `${LOG_PREFIX} could not attach to the AgentTool child '${tool?.name}'; it runs unguarded.`,
      error,
    );
    return;
  }
  if (!child) return;
  try {
    wrapAgentToolRun(tool);
    markToolCall(toolContext, callbacks);
  } catch (error) {
    // A frozen tool, say: the child keeps the callbacks attached to it, whichever guard's they are.
    logFailure(
      logger,
      'error',
      `${LOG_PREFIX} could not mark the call of the AgentTool child '${tool?.name}' as this app's; it runs under the guard first attached to it.`,
      error,
    );
  }
}
