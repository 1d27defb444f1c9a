/**
 * No repeated fetch, the ADK side: before a tool runs, a call of a tool declared `readOnly` and
 * `reuseResult` (the `tools` option) with the same arguments as an earlier call whose result was
 * offloaded or masked, with no call of a tool not declared `readOnly` since, is answered from that
 * stored result (recall/repeat-call.ts), marked with its age, and the tool does not run.
 *
 * ADK 2.0.0 (`agents/functions.js`, `handleFunctionCallList`): a value a plugin's (or an agent's)
 * `beforeToolCallback` returns is used as the tool's response and the tool is not called; the
 * after-tool callbacks still run on it (the guard's truncation leaves a stored answer alone), and
 * ADK stores it as a new function-response event, so the original event is not changed.
 */
import type { BaseTool, Context } from '@google/adk';
import type { GuardLogger, ResolvedPolicy } from '../../options.js';
import { isReadOnlyTool, reusesResult } from '../../config/read-only-tool.js';
import { findStoredAnswer, storedAnswerResult } from '../../recall/repeat-call.js';
import { stateKeysFor } from '../../state/keys.js';
import { recordStoredAnswer } from '../../telemetry/recall-metrics.js';
import { logFailure } from '../../logging/failure-log.js';
import { LOG_PREFIX } from '../../logging/log-prefix.js';
import { isContextRecallTool, RECALL_TOOL_NAME } from './recall-tool.js';

export class StoredAnswers {
  constructor(
    private readonly policyFor: (agentName: string) => ResolvedPolicy,
    private readonly logger: GuardLogger,
  ) {}

  /** The stored answer of this call, or `undefined` to run the tool as usual (also on any failure, logged). */
  answer(
    tool: BaseTool,
    args: Record<string, unknown> | undefined,
    context: Context,
  ): Record<string, unknown> | undefined {
    const toolName = tool.name;
    const agentName = context.invocationContext.agent?.name ?? '';
    try {
      const policy = this.policyFor(context.agentName);
      if (!policy.enabled || !reusesResult(policy.tools, toolName) || isContextRecallTool(tool)) return undefined;
      const invocation = context.invocationContext;
      const keys = stateKeysFor(context.agentName);
      const found = findStoredAnswer(invocation.session.events, {
        agentName: context.agentName,
        toolName,
        args: args ?? {},
        branch: invocation.branch,
        invocationId: invocation.invocationId,
        hidingKeys: [keys.mask, keys.summary],
        // The guard's own recall tool reads the session only.
        isReadOnly: (name) => name === RECALL_TOOL_NAME || isReadOnlyTool(policy.tools, name),
      });
      if (!found) return undefined;
      this.logger.debug(
        `${LOG_PREFIX} agent '${context.agentName}': tool '${toolName}' answered from the stored result of the same call (${found.hiddenBy}), not run again.`,
      );
      recordStoredAnswer(context.agentName, toolName);
      return storedAnswerResult(found, Date.now());
    } catch (error) {
      logFailure(
        this.logger,
        'warn',
        `${LOG_PREFIX} agent '${agentName}': could not look for a stored result of tool '${toolName}'; it runs as usual.`,
        error,
      );
      return undefined;
    }
  }
}
