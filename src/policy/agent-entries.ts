import type { AgentPolicy, ContextGuardOptions } from '../options.js';

/**
 * The agents listed in `agents`: own enumerable entries only. An entry
 * inherited through the prototype chain is neither validated nor used.
 */
export function agentEntries(agents: ContextGuardOptions['agents']): [string, AgentPolicy][] {
  return agents === undefined || agents === null ? [] : Object.entries(agents);
}
