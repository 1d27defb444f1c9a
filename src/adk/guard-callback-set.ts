/**
 * The guard's agent-level callbacks (for agents ADK runs without plugins), made from its
 * before-model, after-model, after-tool and before-tool work, each branded so any guard
 * recognises them (see attach-to-agent.ts).
 */
import type { BaseAgent, BaseTool, Context, LlmRequest, LlmResponse } from '@google/adk';
import type { GuardLogger } from '../options.js';
import { agentToolChild, brandGuardCallback, type GuardAgentCallbackSet } from './attach-to-agent.js';
import type { OffloadingToolOutputTruncator } from './offload-tool-output.js';
import { logFailure } from '../logging/failure-log.js';

/** The work each callback does; none of it throws. */
export interface GuardWork {
  readonly beforeModel: (context: Context, request: LlmRequest) => Promise<void>;
  readonly afterModel: (context: Context, response: LlmResponse) => void;
  readonly afterTool: OffloadingToolOutputTruncator;
  readonly beforeTool: (tool: BaseTool) => Promise<Record<string, unknown> | undefined>;
}

export function guardCallbackSet(work: GuardWork): GuardAgentCallbackSet {
  return {
    beforeModel: brandGuardCallback(async ({ context, request }: { context: Context; request: LlmRequest }) => {
      await work.beforeModel(context, request);
      return undefined;
    }),
    afterModel: brandGuardCallback(async ({ context, response }: { context: Context; response: LlmResponse }) => {
      work.afterModel(context, response);
      return undefined;
    }),
    afterTool: brandGuardCallback(work.afterTool),
    beforeTool: brandGuardCallback(async ({ tool }: { tool: BaseTool }) => work.beforeTool(tool)),
  };
}

/** Attaches the guard to an `AgentTool` child before ADK runs it in its own Runner, without plugins; never throws. */
export function attachToAgentToolChild(tool: BaseTool, attach: (child: BaseAgent) => void, logger: GuardLogger): void {
  try {
    const child = agentToolChild(tool);
    if (child) attach(child);
  } catch (error) {
    logFailure(
      logger,
      'error',
      `[context_guard] could not attach to the AgentTool child '${tool?.name}'; it runs unguarded.`,
      error,
    );
  }
}
