/**
 * Warns, once per key, when an option keyed by names the user writes names
 * nothing of the app a run belongs to: an `agents` entry no agent has
 * (config/unmatched-agents.ts), a `prices` or `modelWindows` entry for none of
 * its agents' models (cost/unmatched-prices.ts, estimate/unmatched-windows.ts),
 * a `tools` or `toolOutputTruncation.tools` entry for none of the tools it
 * applies to (config/unmatched-tools.ts). The app is walked from its root once
 * per root agent: sub-agents and `AgentTool` children, any depth; a child found
 * so is not checked again as an app of its own when ADK later runs it as a root.
 * One guard may serve several apps (a Runner each): a key an app checked before
 * matched is not warned about again, and a key warned about that a later app
 * matches is said to be void, at info (the thirty-sixth outside trial: three
 * apps, each warned about the other two's windows and prices). A `reuseResult` that counts for nothing
 * (config/reuse-without-read-only.ts) is said when the guard is made: it needs no app.
 */
import { isAgentTool, isBaseTool, isLlmAgent, type BaseAgent } from '@google/adk';
import { unmatchedAgents } from '../../config/unmatched-agents.js';
import { unmatchedTools } from '../../config/unmatched-tools.js';
import { reuseWithoutReadOnly } from '../../config/reuse-without-read-only.js';
import { unmatchedPrices } from '../../cost/unmatched-prices.js';
import { unmatchedWindows } from '../../estimate/unmatched-windows.js';
import { routedMembers } from '../../estimate/routed-model.js';
import { listedNameOf, listedRoutedName } from '../runtime/listed-routed-name.js';
import { agentToolChild } from '../runtime/attach-to-agent.js';
import type { ContextGuardOptions, GuardLogger } from '../../options.js';
import { agentEntries } from '../../policy/agent-entries.js';
import { toolKeyScopes } from '../../policy/tool-key-scopes.js';
import { LOG_PREFIX } from '../../logging/log-prefix.js';
import { RECALL_TOOL_NAME } from '../tools/recall-tool.js';

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
function appModelNames(agents: readonly BaseAgent[]): string[] {
  const models = new Set<string>();
  for (const each of agents) {
    if (!isLlmAgent(each)) continue;
    try {
      const name = each.canonicalModel.model;
      models.add(name);
      // A RoutedLlm's models, by its name or, renamed, by the model itself: a window or a price may be for one.
      for (const member of routedMembers(listedRoutedName(each) ?? name) ?? []) models.add(member);
    } catch {
      // No model here or on any ancestor: ADK fails the run itself, with its own error.
    }
  }
  return [...models];
}

/** The summarizers the options name, the default one and each agent's. */
function summarizersOf(options: ContextGuardOptions): NonNullable<ContextGuardOptions['summarizer']>[] {
  const policies = [options, ...agentEntries(options.agents).map(([, policy]) => policy)];
  return policies.flatMap((policy) => (policy.summarizer ? [policy.summarizer] : []));
}

/** Model names of the `BaseLlm` summarizers the options name: a price or a window for one is for a model of the app. */
function summarizerModels(options: ContextGuardOptions): string[] {
  return summarizersOf(options).flatMap((summarizer) => {
    if (!('model' in summarizer) || typeof summarizer.model !== 'string') return [];
    // A RoutedLlm's models, by its name or, renamed, by the model itself, as for an agent's.
    return [summarizer.model, ...(routedMembers(listedNameOf(summarizer) ?? summarizer.model) ?? [])];
  });
}

/**
 * Names of the `Summarizer`s of one's own the options name: their calls are priced by that name, so a price for
 * one prices a model of the app (their window is their own `contextWindow`, never a `modelWindows` entry).
 */
function ownSummarizerNames(options: ContextGuardOptions): string[] {
  return summarizersOf(options).flatMap((summarizer) =>
    'summarize' in summarizer && typeof summarizer.name === 'string' ? [summarizer.name] : [],
  );
}

/**
 * The tool names of `agents` (the guard's recall tool included), or undefined when one has a
 * toolset or a node: their tools are listed only at run time (an MCP server, say).
 */
function toolNames(agents: readonly BaseAgent[]): string[] | undefined {
  const names = new Set([RECALL_TOOL_NAME]);
  for (const agent of agents) {
    if (!isLlmAgent(agent)) continue;
    for (const tool of agent.tools ?? []) {
      if (!isBaseTool(tool)) return undefined;
      names.add(tool.name);
    }
  }
  return [...names];
}

/** An option's key that names nothing of an app, with the warning that says so. */
interface Unmatched {
  readonly key: string;
  readonly message: string;
}

export class UnmatchedAgentsCheck {
  private readonly checkedRoots = new WeakSet<BaseAgent>();
  /** Keys (`option` and key) some app checked so far matched, and keys warned about. Both bounded by the options. */
  private readonly matched = new Set<string>();
  private readonly warned = new Set<string>();
  private readonly agentKeys: readonly string[];
  private readonly priceKeys: readonly string[];
  private readonly windowKeys: readonly string[];
  /** Models the guard itself calls (summarizers): a price or a window may be for one. */
  private readonly otherModels: readonly string[];
  /** Names the guard prices summarizer calls by (a `Summarizer` of one's own): a price may be for one. */
  private readonly pricedNames: readonly string[];
  private readonly toolScopes: ReturnType<typeof toolKeyScopes>;

  constructor(
    options: ContextGuardOptions,
    private readonly logger: GuardLogger,
  ) {
    this.agentKeys = agentEntries(options.agents).map(([name]) => name);
    this.priceKeys = Object.keys(options.prices ?? {});
    this.windowKeys = Object.keys(options.modelWindows ?? {});
    this.otherModels = summarizerModels(options);
    this.pricedNames = ownSummarizerNames(options);
    this.toolScopes = toolKeyScopes(options);
    for (const warning of reuseWithoutReadOnly(options)) logger.warn(warning);
  }

  check(agent: BaseAgent): void {
    const root = agent.rootAgent;
    if (this.checkedRoots.has(root)) return;
    this.checkedRoots.add(root);
    const keyCount = this.agentKeys.length + this.priceKeys.length + this.windowKeys.length + this.toolScopes.length;
    if (keyCount === 0) return;
    const agents = appAgents(root);
    // An AgentTool child runs later in a Runner of its own, as its own root: it is part of this app, not one.
    for (const each of agents) this.checkedRoots.add(each);
    const names = [...new Set(agents.map((each) => each.name))];
    this.report('agents', this.agentKeys, unmatchedAgents(this.agentKeys, names), root);
    const models = [...new Set([...appModelNames(agents), ...this.otherModels])];
    // No model known (ADK fails such a run itself): nothing matched or not, for this app or any later one.
    if (models.length > 0) {
      this.report('prices', this.priceKeys, unmatchedPrices(this.priceKeys, [...models, ...this.pricedNames]), root);
      this.report('modelWindows', this.windowKeys, unmatchedWindows(this.windowKeys, models), root);
    }
    this.checkTools(agents, root);
  }

  /** Warns about the keys of `option` this app leaves unmatched that no app matched before; voids earlier warnings. */
  private report(option: string, keys: readonly string[], unmatched: readonly Unmatched[], root: BaseAgent): void {
    const missing = new Map(unmatched.map(({ key, message }) => [key, message]));
    for (const key of keys) {
      const id = `${option}\u0000${key}`;
      const message = missing.get(key);
      if (message === undefined) {
        this.matched.add(id);
        if (this.warned.delete(id))
          this.logger.info(
            `${LOG_PREFIX} the option ${option}['${key}'] applies to the app of root agent '${root.name}', which ` +
              `this guard serves too: the warning that it named nothing, given at an earlier app's first run, is void.`,
          );
      } else if (!this.matched.has(id) && !this.warned.has(id)) {
        this.warned.add(id);
        this.logger.warn(message);
      }
    }
  }

  /** Each tool-keyed option against the tools of the agents it applies to, when they are known. */
  private checkTools(agents: readonly BaseAgent[], root: BaseAgent): void {
    for (const { option, agentName, keys } of this.toolScopes) {
      const owners = agentName === undefined ? agents : agents.filter((each) => each.name === agentName);
      // An agent the app lacks is warned about above; its tools are nobody's.
      if (owners.length === 0) continue;
      const tools = toolNames(owners);
      if (tools === undefined) {
        this.logger.debug(
          `${LOG_PREFIX} ${option} not checked against tool names: a toolset lists its tools at run time.`,
        );
        continue;
      }
      const owner = agentName === undefined ? 'this app' : `agent '${agentName}'`;
      this.report(option, keys, unmatchedTools(option, keys, tools, owner), root);
    }
  }
}
