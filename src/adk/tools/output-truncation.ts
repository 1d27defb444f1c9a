/**
 * The guard's tool-output truncation: head+tail cuts of oversized tool results per agent policy
 * (see docs/truncation.md), offloaded to an artifact when it can be; each cut counted in the
 * agent's state (persisted with the tool's response event), logged and passed to the
 * `onToolTruncation` listener.
 */
import { namedCutsOf } from '../../recall/declaration.js';
import { mayCutToolOutput, type ToolTruncationRecord } from '../../truncation/truncate-tool-output.js';
import { resolveToolOutputLimits } from '../../truncation/policy.js';
import { stateKeysFor } from '../../state/keys.js';
import type { ContextGuardOptions, GuardLogger, ResolvedPolicy } from '../../options.js';
import { logFailure } from '../../logging/failure-log.js';
import { withArtifactOffload, type OffloadingToolOutputTruncator } from './offload-tool-output.js';
import {
  asPluginAfterToolCallback,
  asToolResult,
  createToolOutputTruncator,
  type PluginAfterToolParams,
  type PluginToolOutputTruncator,
  type ToolCallbackContext,
} from './tool-output-callback.js';
import { LOG_PREFIX } from '../../logging/log-prefix.js';
import { recordToolCut } from '../../telemetry/guard-metrics.js';

/** The truncator in its agent-callback and plugin forms; the plugin form never throws (the result is then kept). */
export interface GuardToolTruncators {
  readonly agent: OffloadingToolOutputTruncator;
  readonly plugin: PluginToolOutputTruncator;
  /** Whether the plugin form may cut this result (nothing is cut, written or logged; never false where it would). */
  readonly wouldCut: (params: PluginAfterToolParams) => boolean;
}

export function guardToolTruncators(
  policyFor: (agentName: string) => ResolvedPolicy,
  logger: GuardLogger,
  listener: ContextGuardOptions['onToolTruncation'],
  artifactTimeoutMs?: number,
): GuardToolTruncators {
  const agent = withArtifactOffload(
    createToolOutputTruncator(
      (agentName) => (policyFor(agentName).enabled ? policyFor(agentName).toolOutputTruncation : false),
      (record, context) => recordTruncation(record, context, logger, listener),
      logger,
    ),
    () => logger,
    artifactTimeoutMs === undefined ? {} : { artifactTimeoutMs },
  );
  const plugin = asPluginAfterToolCallback(agent);
  return {
    agent,
    wouldCut: ({ tool, toolContext, result }) => {
      const policy = policyFor(toolContext.agentName);
      const limits = policy.enabled ? resolveToolOutputLimits(policy.toolOutputTruncation, tool.name) : undefined;
      const wrapped = asToolResult(result);
      return limits !== undefined && wrapped !== undefined && mayCutToolOutput(wrapped, limits);
    },
    plugin: async (params) => {
      try {
        return await plugin(params);
      } catch (error) {
        logFailure(logger, 'error', `${LOG_PREFIX} tool output truncation failed; the result is kept as it is.`, error);
        return undefined;
      }
    },
  };
}

function recordTruncation(
  record: ToolTruncationRecord,
  context: ToolCallbackContext,
  logger: GuardLogger,
  listener: ContextGuardOptions['onToolTruncation'],
): void {
  const agentName = context.agentName;
  const key = stateKeysFor(agentName).toolTruncations;
  const previous = context.state.get<{ count?: unknown }>(key);
  const count = (typeof previous?.count === 'number' ? previous.count : 0) + 1;
  // The named cuts are kept: a later cut not stored as an artifact erased them (review 38).
  context.state.set(key, { count, last: record, named: namedCutsOf(previous) });
  recordToolCut(agentName, record.tool);
  logger.info(
    `${LOG_PREFIX} agent '${agentName}': tool '${record.tool}' result cut from ${record.originalBytes} to ${record.keptBytes} bytes.`,
  );
  try {
    listener?.({ ...record, agentName });
  } catch (error) {
    logFailure(logger, 'error', `${LOG_PREFIX} an onToolTruncation listener failed; ignored.`, error);
  }
}
