/**
 * The shell of usage/sibling-correction.ts: on an agent's first call of a session, the other agents' usage
 * records are read from the session's state (only then: the read copies the state) and the correction one of
 * them learned for the same model is where this agent starts, said at info.
 */
import type { Context, LlmRequest } from '@google/adk';
import { agentOfUsageKey } from '../../state/keys.js';
import { decodeUsageRecord, type UsageRecord } from '../../usage/stored-usage.js';
import { siblingCorrection, startsUncalibrated, withSiblingCorrection } from '../../usage/sibling-correction.js';
import type { GuardLogger } from '../../options.js';
import { LOG_PREFIX } from '../../logging/log-prefix.js';

/** The other agents' usage records in `state`, decoded as read (a bad one reads as nothing learned). */
function* otherAgents(state: Readonly<Record<string, unknown>>, agentName: string): Iterable<[string, UsageRecord]> {
  for (const [key, value] of Object.entries(state)) {
    const name = agentOfUsageKey(key);
    if (name !== undefined && name !== agentName) yield [name, decodeUsageRecord(value)];
  }
}

/** `usage`, started from another agent's correction for the request's model when this is its first call. */
export function startFromSibling(
  context: Context,
  request: LlmRequest,
  usage: UsageRecord,
  logger: GuardLogger,
): UsageRecord {
  if (!startsUncalibrated(usage) || !request.model) return usage;
  const found = siblingCorrection(usage, request.model, otherAgents(context.state.toRecord(), context.agentName));
  if (!found) return usage;
  logger.info(
    `${LOG_PREFIX} agent '${context.agentName}': starts from the correction x${found.correction.toFixed(2)} agent ` +
      `'${found.agentName}' learned for ${found.model} in this session, not the default`,
  );
  return withSiblingCorrection(usage, found);
}
