/**
 * A help desk for multi-agent tests: a router that transfers every turn to
 * one of its desks (`billing`, `support`) with ADK's `transfer_to_agent`, and
 * a researcher a desk can call as a tool.
 */
import { LlmAgent, type BaseAgent, type BaseTool, type LlmAgentConfig } from '@google/adk';
import type { ModelScript, ScriptedLlm } from '../../src/testing/index.js';

/** A router's script: it hands every turn to `agentName` with ADK's transfer tool. */
export function transferTo(agentName: string): ModelScript {
  return () => ({
    content: { role: 'model', parts: [{ functionCall: { name: 'transfer_to_agent', args: { agentName } } }] },
  });
}

/** The router of a help desk, over its desks. */
export function routerAgent(model: ScriptedLlm, subAgents: BaseAgent[]): LlmAgent {
  return new LlmAgent({
    name: 'router',
    description: 'Routes questions.',
    model,
    instruction: 'Route every question.',
    subAgents,
  });
}

/** A desk of a help desk (`billing`, `support`) that the router can transfer to. */
export function deskAgent(name: string, model: ScriptedLlm, tools: BaseTool[] = []): LlmAgent {
  return new LlmAgent({
    name,
    description: `Answers ${name} questions.`,
    model,
    instruction: `You handle ${name}.`,
    tools,
  });
}

/** The researcher a desk calls as an `AgentTool` (ADK runs it in a Runner of its own), with `config` over its own. */
export function researcherAgent(model: ScriptedLlm, tools: BaseTool[], config: Partial<LlmAgentConfig> = {}): LlmAgent {
  return new LlmAgent({
    name: 'researcher',
    description: 'Researches a question.',
    model,
    instruction: 'You research.',
    tools,
    ...config,
  });
}
