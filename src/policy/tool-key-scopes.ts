/**
 * The options keyed by tool name, global and per agent, with the agent whose tools each applies
 * to (none: every agent's), so the shell can check each key against the tools it names.
 */
import type { AgentPolicy, ContextGuardOptions } from '../options.js';
import { agentEntries } from './agent-entries.js';

interface ToolKeyScope {
  /** The option's path in messages: `tools`, `agents.worker.toolOutputTruncation.tools`. */
  readonly option: string;
  /** The agent whose tools the keys name; undefined for a global option (any agent's tool). */
  readonly agentName: string | undefined;
  readonly keys: readonly string[];
}

function policyScopes(policy: AgentPolicy, prefix: string, agentName: string | undefined): ToolKeyScope[] {
  const truncation = policy.toolOutputTruncation;
  return [
    { option: `${prefix}tools`, agentName, keys: Object.keys(policy.tools ?? {}) },
    { option: `${prefix}toolOutputTruncation.tools`, agentName, keys: Object.keys((truncation || {}).tools ?? {}) },
  ];
}

/** Every option keyed by tool name that has a key (options already validated). */
export function toolKeyScopes(options: ContextGuardOptions): ToolKeyScope[] {
  const scopes = [
    ...policyScopes(options, '', undefined),
    ...agentEntries(options.agents).flatMap(([name, policy]) => policyScopes(policy, `agents.${name}.`, name)),
  ];
  return scopes.filter((scope) => scope.keys.length > 0);
}
