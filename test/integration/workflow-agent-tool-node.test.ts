/**
 * A Workflow's `ToolNode` whose tool is an `AgentTool`: ADK runs the node's tool with no agent, and the child in a
 * Runner of its own, without plugins. The plugin's before-tool callback is where the guard attaches itself to an
 * `AgentTool` child; since 0d9435f it returned at once for a tool no agent called, before attaching, so the child
 * ran unguarded: its oversized tool result went to its model whole, and the model's rejection reached the user as
 * an error event.
 */
import { AgentTool, FunctionNode, FunctionTool, LlmAgent, ToolNode, Workflow } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { CapturingLogger, ScriptedLlm, ratioTokenCounter } from '../../src/testing/index.js';
import { callThenAnswer } from '../support/call-then-answer.js';
import { errorCodes } from '../support/agent-harness.js';
import { workflowTurn } from '../support/workflow-run.js';

const WINDOW = 8_000;
const BIG = Array.from({ length: 1_500 }, (_, row) => `row ${row}: status=ok region=eu-${row % 7}`).join('\n');

function researcher(): { child: LlmAgent; model: ScriptedLlm } {
  const model = new ScriptedLlm({
    model: 'scripted-researcher',
    window: WINDOW,
    countTokens: ratioTokenCounter(1),
    script: callThenAnswer({ call: () => ({ name: 'fetch_report', args: {} }), answer: () => 'Report read.' }),
  });
  const report = new FunctionTool({
    name: 'fetch_report',
    description: 'Returns a long report.',
    parameters: { type: 'OBJECT', properties: {} } as never,
    execute: () => ({ output: BIG }),
  });
  return { child: new LlmAgent({ name: 'researcher', model, instruction: 'Research.', tools: [report] }), model };
}

describe('a Workflow whose ToolNode runs an AgentTool', () => {
  it('should guard the child: its oversized tool result is cut, no rejection, no error event', async () => {
    const { child, model } = researcher();
    const root = new Workflow({
      name: 'delegation',
      edges: [
        [
          'START',
          new FunctionNode('ask', () => ({ request: 'Read the report.' })),
          new ToolNode(new AgentTool({ agent: child })),
        ],
      ],
    });
    const logger = new CapturingLogger();
    const guard = new ContextGuard({ contextWindow: WINDOW, logger });
    const events = await workflowTurn(root, guard, 'Go.');
    expect(BIG.length).toBeGreaterThan(WINDOW * 4);
    expect(model.requests.map((request) => request.rejected ?? false)).toEqual([false, false]);
    expect(errorCodes(events)).toEqual([]);
    expect(JSON.stringify(events.map((event) => event.output ?? null))).toContain('Report read.');
  });
});
