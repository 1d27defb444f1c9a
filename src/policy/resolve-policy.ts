/** The policy each agent is held to: the option table's defaults, then the global options, then the agent's own. */
import { optionDefault, POLICY_OPTION_NAMES, type PolicyOptionName } from '../config/option-table.js';
import type { AgentPolicy, ContextGuardOptions, ResolvedPolicy, ToolDeclaration } from '../options.js';

/** The policy for `agentName`: defaults, then the global options, then the agent's own (an own enumerable `agents` entry). */
export function resolvePolicy(options: ContextGuardOptions, agentName: string): ResolvedPolicy {
  const agents = options.agents;
  const own: AgentPolicy =
    agents && Object.prototype.propertyIsEnumerable.call(agents, agentName) ? (agents[agentName] ?? {}) : {};
  const resolved: Partial<Record<PolicyOptionName, unknown>> = {};
  for (const name of POLICY_OPTION_NAMES) {
    const value = own[name] !== undefined ? own[name] : options[name];
    resolved[name] = value !== undefined ? value : optionDefault(name);
  }
  resolved.tools = mergeTools(options.tools, own.tools);
  return resolved as ResolvedPolicy;
}

/** The global tool declarations with the agent's merged over them, tool by tool (own entries only). */
function mergeTools(
  global: AgentPolicy['tools'],
  own: AgentPolicy['tools'],
): Readonly<Record<string, Readonly<ToolDeclaration>>> {
  // A Map, then own properties: a tool named `__proto__` stays a tool, not a prototype.
  const merged = new Map<string, ToolDeclaration>();
  for (const layer of [global, own]) {
    for (const [toolName, declaration] of Object.entries(layer ?? {}))
      merged.set(toolName, { ...merged.get(toolName), ...declaration });
  }
  return Object.fromEntries(merged);
}
