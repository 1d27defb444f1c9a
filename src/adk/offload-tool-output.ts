/**
 * Offloads a tool result that truncation cut to the invocation's artifact
 * service (ADK's in-memory, file or GCS service, scoped by the Runner to the
 * app, user and session), so the whole result stays readable through the
 * recall tool while the context keeps head and tail plus a handle.
 *
 * ADK 2.0.0: `Context.saveArtifact` throws "Artifact service is not
 * initialized." without a service, so the caller checks for one first; a
 * successful save is also recorded in the tool event's `actions.artifactDelta`.
 */
import { getLogger, type BaseTool, type Context } from '@google/adk';
import { offloadArtifactName, offloadPart, withOffloadHandle } from '../offload/artifact-handle.js';
import { isContextRecallTool } from './recall-tool.js';
import { asToolResult, type AgentAfterToolParams, type ToolOutputTruncator } from './tool-output-callback.js';

/** The logging the offloader needs. */
export interface OffloadLogger {
  warn(...args: unknown[]): void;
}

export interface OffloadInput {
  readonly context: Context;
  readonly tool: BaseTool;
  /** The whole result, as ADK will wrap it. */
  readonly full: Record<string, unknown>;
  /** The cut result truncation produced. */
  readonly cut: Record<string, unknown>;
  readonly logger: OffloadLogger;
}

/** Whether a tool call can offload: its invocation has an artifact service, and the tool is not the recall tool itself. */
export function canOffload(context: Context, tool: BaseTool): boolean {
  return context.invocationContext?.artifactService !== undefined && !isContextRecallTool(tool);
}

/** The recall tool's name on this agent, if it has one (the handle then says how to read the artifact). */
function recallToolName(context: Context): string | undefined {
  const tools: unknown = (context.invocationContext.agent as { tools?: unknown }).tools;
  if (!Array.isArray(tools)) return undefined;
  const recall = tools.find((tool) => isContextRecallTool(tool));
  return recall?.name;
}

/**
 * Saves `full` as an artifact and returns `cut` plus its handle. On any
 * failure it logs one warning and returns `cut` unchanged: the tool call
 * never fails because of offloading.
 */
export async function offloadToolOutput({
  context,
  tool,
  full,
  cut,
  logger,
}: OffloadInput): Promise<Record<string, unknown>> {
  try {
    const name = offloadArtifactName(tool.name, context.invocationId, context.functionCallId);
    const text = JSON.stringify(full);
    const version = await context.saveArtifact(name, offloadPart(text));
    return withOffloadHandle(cut, { name, version, chars: text.length }, recallToolName(context));
  } catch (error) {
    logger.warn(
      `[context_guard] agent '${context.agentName}': could not store tool '${tool.name}' result as an artifact; only its cut version is kept.`,
      error,
    );
    return cut;
  }
}

/** A truncator that offloads what it cut (see `withArtifactOffload`); assignable to ADK's `SingleAfterToolCallback`. */
export type OffloadingToolOutputTruncator = (
  params: AgentAfterToolParams,
) => Promise<Record<string, unknown> | undefined>;

/**
 * Wraps a truncator: a result it cut is also saved whole as an artifact when
 * the invocation has an artifact service, and the cut result carries the
 * handle. Without a service, or when nothing was cut, the truncator's answer
 * is returned as it is. `logTo` gives the logger for a failed save (default: ADK's).
 *
 * @example
 * new LlmAgent({ ..., afterToolCallback: withArtifactOffload(createToolOutputTruncator()) })
 */
export function withArtifactOffload(
  truncator: ToolOutputTruncator,
  logTo: () => OffloadLogger = getLogger,
): OffloadingToolOutputTruncator {
  return async (params) => {
    const cut = truncator(params);
    if (!cut || !canOffload(params.context, params.tool)) return cut;
    const full = asToolResult(params.response);
    return full ? offloadToolOutput({ context: params.context, tool: params.tool, full, cut, logger: logTo() }) : cut;
  };
}
