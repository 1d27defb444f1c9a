/**
 * The real ADK agents of a scenario, per topology: a single LlmAgent, a
 * router with a worker sub-agent (transfers both ways), or a SequentialAgent
 * pipeline (researcher then writer), or a lead with an `AgentTool` child
 * (researcher). Under the `adk-token-based` baseline
 * each LlmAgent carries ADK's own TokenBasedContextCompactor.
 */
import {
  AgentTool,
  LlmAgent,
  LlmSummarizer,
  SequentialAgent,
  TokenBasedContextCompactor,
  type BaseAgent,
  type BaseContextCompactor,
  type BaseLlm,
  type FunctionTool,
} from '@google/adk';
import { systemPrompt } from '../src/testing/index.js';
import { declarationOnlyTools, fetchDataTool } from './scenario-tools.js';
import type { ScenarioSpec } from './scenario-types.js';
import { AGENT_NAMES } from './scenario-script.js';
import { replayTools } from './trajectories/replay-tools.js';
import { ADK_EVENT_RETENTION } from './strategies.js';

export interface AgentSetup {
  readonly model: BaseLlm;
  /** The summarizer model for ADK's compactor; absent: no compactor. */
  readonly adkSummarizerLlm?: BaseLlm | undefined;
  /** ADK compactor threshold in tokens. */
  readonly adkTokenThreshold: number;
  /** A tool-work scenario's tools (built per run, so their run counts are the run's). */
  readonly workTools?: FunctionTool[] | undefined;
}

/** A scenario without tool work gives its agents no tools (the seed's "none"), so no declarations ride along. */
function usesTools(spec: ScenarioSpec): boolean {
  return (
    spec.replay !== undefined ||
    spec.work !== undefined ||
    (spec.extraToolDeclarations ?? 0) > 0 ||
    spec.turnPattern.tools.some((turn) => turn.some((step) => step.length > 0))
  );
}

/** A replay's recorded system prompt, given as a provider so ADK does not read its braces as state placeholders. */
function instructionOf(spec: ScenarioSpec, name: string): string | (() => string) {
  const recorded = spec.replay?.systemPrompt;
  return recorded === undefined ? systemPrompt(spec.systemPromptChars ?? 400, name) : () => recorded;
}

function toolsOf(spec: ScenarioSpec, setup: AgentSetup): FunctionTool[] {
  if (setup.workTools) return setup.workTools;
  if (spec.replay) return replayTools(spec.replay);
  return [fetchDataTool(), ...declarationOnlyTools(spec.extraToolDeclarations ?? 0)];
}

function compactors(setup: AgentSetup): BaseContextCompactor[] | undefined {
  if (!setup.adkSummarizerLlm) return undefined;
  return [
    new TokenBasedContextCompactor({
      tokenThreshold: setup.adkTokenThreshold,
      eventRetentionSize: ADK_EVENT_RETENTION,
      summarizer: new LlmSummarizer({ llm: setup.adkSummarizerLlm }),
    }),
  ];
}

function llmAgent(
  spec: ScenarioSpec,
  name: string,
  setup: AgentSetup,
  withTools: boolean,
  extra: Partial<ConstructorParameters<typeof LlmAgent>[0]> = {},
): LlmAgent {
  const compactorList = compactors(setup);
  return new LlmAgent({
    name,
    model: setup.model,
    description: `The ${name} of the simulated operations team.`,
    instruction: instructionOf(spec, name),
    tools: withTools && usesTools(spec) ? toolsOf(spec, setup) : [],
    ...(compactorList ? { contextCompactors: compactorList } : {}),
    ...extra,
  });
}

/** The root agent and the names of every LlmAgent in it. */
export function buildAgents(spec: ScenarioSpec, setup: AgentSetup): { root: BaseAgent; agentNames: readonly string[] } {
  const topology = spec.agents ?? 'single';
  const names = AGENT_NAMES[topology];
  if (topology === 'transfer') {
    const worker = llmAgent(spec, 'worker', setup, true);
    const router = llmAgent(spec, 'router', setup, false, { subAgents: [worker] });
    return { root: router, agentNames: names };
  }
  if (topology === 'pipeline') {
    const isolated = { disallowTransferToParent: true, disallowTransferToPeers: true };
    const researcher = llmAgent(spec, 'researcher', setup, true, isolated);
    const writer = llmAgent(spec, 'writer', setup, false, isolated);
    return { root: new SequentialAgent({ name: 'pipeline', subAgents: [researcher, writer] }), agentNames: names };
  }
  if (topology === 'agent-tool') {
    // The child is reached only through the tool: ADK runs it in a Runner of its own, without plugins.
    const researcher = llmAgent(spec, 'researcher', setup, true);
    const lead = llmAgent(spec, 'lead', setup, false, { tools: [new AgentTool({ agent: researcher })] });
    return { root: lead, agentNames: names };
  }
  return { root: llmAgent(spec, 'worker', setup, true), agentNames: names };
}
