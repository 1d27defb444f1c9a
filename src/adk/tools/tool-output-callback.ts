/**
 * ADK adapters for tool-output truncation: the pure `truncateToolOutput`
 * behind an agent `afterToolCallback` and a plugin `afterToolCallback`.
 *
 * Things ADK 2.0.0 does around these callbacks (`agents/functions.js`,
 * `handleFunctionCallList`) that shape this file:
 * - The callback receives the tool's *raw* return value, typed as a record but
 *   possibly a string, number or array at run time; ADK wraps it as
 *   `{ result }` / `{ results }` only after the callbacks. We wrap it the same
 *   way before measuring, so what we cut is what the model would get.
 * - A plugin that returns a value skips later plugins *and* every agent
 *   `afterToolCallback`; so the truncator returns `undefined` unless it cut.
 * - What the callback returns is what ADK persists in the function-response
 *   event and sends to the model.
 * - When the tool threw, the callback gets `null` and anything it returns is
 *   replaced by `{ error: message }`; error messages are not cut here.
 */
import { getLogger, type BasePlugin, type SingleAfterToolCallback } from '@google/adk';
import { truncateToolOutput, type ToolTruncationRecord } from '../../truncation/truncate-tool-output.js';
import {
  resolveToolOutputLimits,
  validateToolOutputTruncation,
  type ResolvedToolOutputLimits,
  type ToolOutputTruncation,
} from '../../truncation/policy.js';
import { logFailure } from '../../logging/failure-log.js';
import type { GuardLogger } from '../../options.js';
import { LOG_PREFIX } from '../../logging/log-prefix.js';

/** Parameters ADK passes to an agent-level `afterToolCallback`. */
export type AgentAfterToolParams = Parameters<SingleAfterToolCallback>[0];

/** Parameters ADK passes to a plugin's `afterToolCallback`. */
export type PluginAfterToolParams = Parameters<BasePlugin['afterToolCallback']>[0];

/** The tool context ADK passes to tool callbacks (its unified `Context`). */
export type ToolCallbackContext = AgentAfterToolParams['context'];

/**
 * Called after each truncation with its record and the tool's context. State
 * written through `context.state` is persisted with the function-response
 * event, which makes it a natural place for an audit trail.
 */
export type ToolTruncationListener = (record: ToolTruncationRecord, context: ToolCallbackContext) => void;

/**
 * Truncation options for every agent, or a function giving them per agent
 * name (for per-agent limits; its answer is validated and cached per name).
 * `undefined` means on, with the defaults.
 */
export type ToolOutputTruncationSource =
  ToolOutputTruncation | undefined | ((agentName: string) => ToolOutputTruncation | undefined);

/** An agent `afterToolCallback` that cuts oversized results; assignable to ADK's `SingleAfterToolCallback`. */
export type ToolOutputTruncator = (params: AgentAfterToolParams) => Record<string, unknown> | undefined;

/** A plugin `afterToolCallback` body, for `override async afterToolCallback(params) { return hook(params); }`. */
export type PluginToolOutputTruncator = (params: PluginAfterToolParams) => Promise<Record<string, unknown> | undefined>;

/**
 * Creates an agent-level `afterToolCallback` that shrinks a tool result over
 * the limits (default 10 KiB of JSON or 256 lines per string, keeping the
 * first and last 128 lines) and reports each cut to `onTruncation`.
 *
 * It returns `undefined` when nothing was cut, so ADK keeps the original and
 * later callbacks still run. It never throws into ADK: a failure is logged (to
 * `logger`, ADK's own by default) and the result goes through unchanged (fail
 * open, like the rest of the guard).
 *
 * @example
 * new LlmAgent({ ..., afterToolCallback: createToolOutputTruncator({ tools: { read_file: { maxBytes: 32_768 } } }) })
 * @throws ContextGuardConfigError when static `options` are invalid.
 */
export function createToolOutputTruncator(
  options?: ToolOutputTruncationSource,
  onTruncation?: ToolTruncationListener,
  logger: GuardLogger = getLogger(),
): ToolOutputTruncator {
  if (typeof options !== 'function') validateToolOutputTruncation(options);
  const policies = new Map<string, ToolOutputTruncation | undefined | null>();

  /** The policy of an agent; `null` when a per-agent answer was invalid (truncation off, logged once). */
  const policyFor = (agentName: string): ToolOutputTruncation | undefined | null => {
    if (typeof options !== 'function') return options;
    if (policies.has(agentName)) return policies.get(agentName);
    let policy: ToolOutputTruncation | undefined | null;
    try {
      const answer = options(agentName);
      validateToolOutputTruncation(answer, `agents.${agentName}.toolOutputTruncation`);
      policy = answer;
    } catch (error) {
      logFailure(
        logger,
        'error',
        `${LOG_PREFIX} agent '${agentName}': invalid tool-output truncation options; tool results are left alone.`,
        error,
      );
      policy = null;
    }
    policies.set(agentName, policy);
    return policy;
  };

  return ({ tool, context, response }) => {
    try {
      const policy = policyFor(context.agentName);
      if (policy === null) return undefined;
      const limits: ResolvedToolOutputLimits | undefined = resolveToolOutputLimits(policy, tool.name);
      if (!limits) return undefined;
      const result = asToolResult(response);
      if (!result) return undefined;
      const truncated = truncateToolOutput({ tool: tool.name, result, limits });
      if (!truncated) return undefined;
      tellCut(truncated.record, context, onTruncation, logger);
      return truncated.result;
    } catch (error) {
      logFailure(
        logger,
        'error',
        `${LOG_PREFIX} tool-output truncation failed for tool '${tool?.name ?? '?'}'; the result is sent unchanged.`,
        error,
      );
      return undefined;
    }
  };
}

/**
 * Adapts a truncator to the plugin hook shape (`{ tool, toolArgs, toolContext, result }`).
 *
 * @example
 * class MyPlugin extends BasePlugin {
 *   private readonly truncate = asPluginAfterToolCallback(createToolOutputTruncator());
 *   override async afterToolCallback(params: PluginAfterToolParams) { return this.truncate(params); }
 * }
 */
export function asPluginAfterToolCallback(
  truncator: ToolOutputTruncator | ((params: AgentAfterToolParams) => Promise<Record<string, unknown> | undefined>),
): PluginToolOutputTruncator {
  return async ({ tool, toolArgs, toolContext, result }) =>
    truncator({ tool, args: toolArgs, context: toolContext, response: result });
}

/** The result the way ADK will wrap it after the callbacks (`normalizeCallbackResponse`). */
export function asToolResult(value: unknown): Record<string, unknown> | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'object') return { result: value };
  if (Array.isArray(value)) return { results: value };
  return value as Record<string, unknown>;
}

/** A cut goes to the listener, which a failure of never undoes; without one it is logged at debug. */
function tellCut(
  record: ToolTruncationRecord,
  context: ToolCallbackContext,
  onTruncation: ToolTruncationListener | undefined,
  logger: GuardLogger,
): void {
  if (!onTruncation) {
    // The guard's listener logs the cut itself, at info (adk/tools/output-truncation.ts).
    logger.debug(
      `${LOG_PREFIX} agent '${context.agentName}': tool '${record.tool}' result cut from ${record.originalBytes} to ${record.keptBytes} bytes.`,
    );
    return;
  }
  try {
    onTruncation(record, context);
  } catch (error) {
    // A failing listener must not undo the cut: the model still gets the short result.
    logFailure(logger, 'error', `${LOG_PREFIX} onTruncation listener failed.`, error);
  }
}
