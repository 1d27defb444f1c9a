/**
 * What the budget line's step reads of a call (pipeline/budget-line-step.ts): whether it is sent at all, whether
 * tool output was offloaded, and which of the guard's tools the request declares for the line to name.
 */
import type { Context, LlmRequest } from '@google/adk';
import type { ResolvedPolicy } from '../../options.js';
import type { GuardRequestInput } from '../../pipeline/contract.js';
import { stateKeysFor } from '../../state/keys.js';
import { CONTEXT_STATUS_TOOL_NAME } from '../tools/context-status-tool.js';
import { isPinContextTool } from '../tools/pin-tool.js';

/**
 * The budget line's input where it is sent: `budgetLine` on, and the request not the continuation of
 * an interaction (Interactions mode keeps the earlier turns on the provider's side, where a line
 * sent with one call would stay). It is sent after everything else: the fixed part keeps room for its longest form.
 */
export function budgetLineFor(
  context: Context,
  policy: ResolvedPolicy,
  inInteractions: boolean,
  request: LlmRequest,
): GuardRequestInput['budgetLine'] {
  // Not in Interactions mode, the chain's first call included: that call's contents stay on the server.
  if (!policy.budgetLine || inInteractions) return undefined;
  const truncations = context.state.get<{ count?: unknown }>(stateKeysFor(context.agentName).toolTruncations)?.count;
  const statusTool = request.toolsDict?.[CONTEXT_STATUS_TOOL_NAME] !== undefined;
  const pinTool = Object.values(request.toolsDict ?? {}).find(isPinContextTool)?.name;
  return { offloaded: typeof truncations === 'number' && truncations > 0, statusTool, pinTool };
}
