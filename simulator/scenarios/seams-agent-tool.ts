/**
 * An `AgentTool` child under plugin-only attachment: the guard is registered
 * on the Runner only, and ADK runs the child in a Runner of its own without
 * plugins, whose session (app = the child's name, the parent's session id)
 * grows across calls. The guard must reach the child by itself.
 */
import { K, single } from '../scenario-builders.js';
import type { ScenarioSpec } from '../scenario-types.js';

export const SEAMS_AGENT_TOOL: readonly ScenarioSpec[] = [
  {
    name: '8k_AgentToolChild_PluginOnly',
    group: 'extra',
    claim:
      'A lead hands every turn to an AgentTool child (run by ADK without plugins) that fetches 2k characters; with the plugin alone on the Runner, the child compacts and never overflows.',
    window: 8 * K,
    turns: 24,
    ratio: 2.0,
    usage: 'always',
    agents: 'agent-tool',
    turnPattern: { tools: [single(2 * K, 'logs')] },
    expect: { compactions: { min: 2 }, rawOverWindow: { min: 1 } },
  },
];
