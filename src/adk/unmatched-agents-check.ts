/**
 * Warns, once per `agents` entry, when the app a run belongs to has no agent
 * of that name (see config/unmatched-agents.ts). The app is walked from its
 * root once per root agent: sub-agents and `AgentTool` children, any depth.
 */
import { isAgentTool, isLlmAgent, type BaseAgent } from '@google/adk';
import { unmatchedAgents } from '../config/unmatched-agents.js';
import { agentToolChild } from './attach-to-agent.js';
import type { GuardLogger } from '../options.js';
import { WarnOnce } from './warn-once.js';

/** The names of every agent of the app `agent` belongs to. */
export function appAgentNames(agent: BaseAgent): string[] {
  const names = new Set<string>();
  const seen = new Set<BaseAgent>();
  const stack: BaseAgent[] = [agent.rootAgent];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    names.add(next.name);
    stack.push(...(next.subAgents ?? []));
    if (!isLlmAgent(next)) continue;
    for (const tool of next.tools ?? []) {
      const child = isAgentTool(tool) ? agentToolChild(tool) : undefined;
      if (child) stack.push(child);
    }
  }
  return [...names];
}

export class UnmatchedAgentsCheck {
  private readonly checkedRoots = new WeakSet<BaseAgent>();
  private readonly warnings: WarnOnce;

  constructor(
    private readonly keys: readonly string[],
    logger: GuardLogger,
  ) {
    this.warnings = new WarnOnce(logger);
  }

  check(agent: BaseAgent): void {
    const root = agent.rootAgent;
    if (this.keys.length === 0 || this.checkedRoots.has(root)) return;
    this.checkedRoots.add(root);
    for (const { key, message } of unmatchedAgents(this.keys, appAgentNames(root))) this.warnings.warn(key, message);
  }
}
