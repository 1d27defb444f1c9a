/** The policy each agent is held to: the option table's defaults, then the global options, then the agent's own. */
import { optionDefault, POLICY_OPTION_NAMES, type PolicyOptionName } from '../config/option-table.js';
import type { AgentPolicy, ContextGuardOptions, ResolvedPolicy, ToolDeclaration } from '../options.js';

/** The agent's own entry of `agents` (own properties only: an agent named `__proto__` is an agent). */
function ownPolicy(options: ContextGuardOptions, agentName: string): AgentPolicy {
  const agents = options.agents;
  return agents && Object.prototype.propertyIsEnumerable.call(agents, agentName) ? (agents[agentName] ?? {}) : {};
}

/** Whether the user gave `name` for `agentName`, globally or in its own entry (a default written out counts). */
export function optionGiven(options: ContextGuardOptions, agentName: string, name: PolicyOptionName): boolean {
  return ownPolicy(options, agentName)[name] !== undefined || options[name] !== undefined;
}

/** The policy for `agentName`: defaults, then the global options, then the agent's own (an own enumerable `agents` entry). */
export function resolvePolicy(options: ContextGuardOptions, agentName: string): ResolvedPolicy {
  const own = ownPolicy(options, agentName);
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
