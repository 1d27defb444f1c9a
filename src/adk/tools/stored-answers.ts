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
import { CONTEXT_STATUS_TOOL_NAME } from './context-status-tool.js';
import { PIN_TOOL_NAME } from './pin-tool.js';

/**
 * Tools whose call changes nothing a tool reads: the guard's own (they read the session, or write only its pins) and
 * ADK's agent transfer (review 15: each of them made every stored answer before it stale, and the tool ran again).
 */
const CHANGES_NOTHING = new Set([RECALL_TOOL_NAME, CONTEXT_STATUS_TOOL_NAME, PIN_TOOL_NAME, 'transfer_to_agent']);

/**
 * The stored answers this process handed out. ADK 2.0.0 passes the object a before-tool callback returned to the
 * after-tool callbacks of the same call, so they are told apart by identity: a tool result that merely carries the
 * mark's key is cut like any other (the eighteenth outside trial: such a result skipped the cut at the source).
 */
const givenAnswers = new WeakSet<object>();

/** Whether `result` is a stored answer this process gave (truncation leaves it alone: it was cut when first stored). */
export function isGivenStoredAnswer(result: unknown): boolean {
  return typeof result === 'object' && result !== null && givenAnswers.has(result);
}

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
        isReadOnly: (name) => CHANGES_NOTHING.has(name) || isReadOnlyTool(policy.tools, name),
      });
      if (!found) return undefined;
      this.logger.debug(
        `${LOG_PREFIX} agent '${context.agentName}': tool '${toolName}' answered from the stored result of the same call (${found.hiddenBy}), not run again.`,
      );
      recordStoredAnswer(context.agentName, toolName);
      const answer = storedAnswerResult(found, Date.now());
      givenAnswers.add(answer);
      return answer;
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
