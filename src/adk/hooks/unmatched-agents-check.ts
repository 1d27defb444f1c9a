/**
 * Warns, once per `agents` entry, when the app a run belongs to has no agent
 * of that name (see config/unmatched-agents.ts), and once per `prices` entry
 * that prices none of its agents' models (cost/unmatched-prices.ts). The app
 * is walked from its root once per root agent: sub-agents and `AgentTool`
 * children, any depth.
 */
import { isAgentTool, isLlmAgent, type BaseAgent } from '@google/adk';
import { unmatchedAgents } from '../../config/unmatched-agents.js';
import { unmatchedPrices } from '../../cost/unmatched-prices.js';
import { agentToolChild } from '../runtime/attach-to-agent.js';
import type { ContextGuardOptions, GuardLogger } from '../../options.js';
import { agentEntries } from '../../policy/agent-entries.js';
import { WarnOnce } from '../runtime/warn-once.js';

/** Every agent of the app `agent` belongs to. */
function appAgents(agent: BaseAgent): BaseAgent[] {
  const seen = new Set<BaseAgent>();
  const stack: BaseAgent[] = [agent.rootAgent];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    stack.push(...(next.subAgents ?? []));
    if (!isLlmAgent(next)) continue;
    for (const tool of next.tools ?? []) {
      const child = isAgentTool(tool) ? agentToolChild(tool) : undefined;
      if (child) stack.push(child);
    }
  }
  return [...seen];
}

/** The names of every agent of the app `agent` belongs to. */
export function appAgentNames(agent: BaseAgent): string[] {
  return [...new Set(appAgents(agent).map((each) => each.name))];
}

/** The model names of the app's LLM agents, inherited ones included; an agent with no model is skipped. */
function appModelNames(agent: BaseAgent): string[] {
  const models = new Set<string>();
  for (const each of appAgents(agent)) {
    if (!isLlmAgent(each)) continue;
    try {
      models.add(each.canonicalModel.model);
    } catch {
      // No model here or on any ancestor: ADK fails the run itself, with its own error.
    }
  }
  return [...models];
}

/** Model names of the `BaseLlm` summarizers the options name: a price for one prices a model of the app. */
export function summarizerModels(options: ContextGuardOptions): string[] {
  const policies = [options, ...agentEntries(options.agents).map(([, policy]) => policy)];
  return policies.flatMap((policy) => {
    const summarizer = policy.summarizer;
    return summarizer && 'model' in summarizer && typeof summarizer.model === 'string' ? [summarizer.model] : [];
  });
}

export class UnmatchedAgentsCheck {
  private readonly checkedRoots = new WeakSet<BaseAgent>();
  private readonly warnings: WarnOnce;

  /**
   * `keys`: the `agents` option's names; `priceKeys`: the `prices` option's model names;
   * `otherModels`: models the guard itself calls (summarizers), which a price may be for.
   */
  constructor(
    private readonly keys: readonly string[],
    logger: GuardLogger,
    private readonly priceKeys: readonly string[] = [],
    private readonly otherModels: readonly string[] = [],
  ) {
    this.warnings = new WarnOnce(logger);
  }

  check(agent: BaseAgent): void {
    const root = agent.rootAgent;
    if ((this.keys.length === 0 && this.priceKeys.length === 0) || this.checkedRoots.has(root)) return;
    this.checkedRoots.add(root);
    for (const { key, message } of unmatchedAgents(this.keys, appAgentNames(root))) this.warnings.warn(key, message);
    const models = [...new Set([...appModelNames(root), ...this.otherModels])];
    for (const { key, message } of unmatchedPrices(this.priceKeys, models))
      this.warnings.warn(`prices:${key}`, message);
  }
}
