/**
 * An ADK 2.0 `Workflow` with a `ToolNode`, the guard as a plugin: ADK runs the node's tool with no agent, and the
 * plugin's tool callbacks still run. The tenth outside trial found every such run ending in an error event and an
 * exception out of `runAsync` ("Error in plugin 'context_guard' during 'beforeToolCallback' callback: Error:
 * InvocationContext.agent is not set"): reading `agentName` throws there, and the guard's own failure log read it
 * again. Nothing of the guard applies to a tool no agent called: the tool runs, and its output goes on untouched.
 */
import { FunctionNode, FunctionTool, ToolNode, Workflow } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { CapturingLogger } from '../../src/testing/index.js';
import { workflowTurn } from '../support/workflow-run.js';

const REPORT = `${'quarterly figures '.repeat(2_500)}END-OF-REPORT`;

describe('a Workflow with a ToolNode', () => {
  it("should run the node's tool and pass its whole output on, with no error event", async () => {
    const report = new FunctionTool({
      name: 'report',
      description: 'Returns the quarterly report.',
      // Declared read-only, so that the guard would answer a repeated call from a stored result if it applied.
      execute: async () => ({ text: REPORT }),
    });
    const root = new Workflow({
      name: 'reporting',
      edges: [['START', new FunctionNode('args', () => ({})), new ToolNode(report)]],
    });
    const logger = new CapturingLogger();
    const guard = new ContextGuard({ tools: { report: { readOnly: true } }, logger });
    const events = await workflowTurn(root, guard, 'Run the report.');
    expect(events.filter((event) => event.errorCode)).toEqual([]);
    const output = JSON.stringify(events.map((event) => event.output ?? event.content ?? null));
    expect(output).toContain('END-OF-REPORT');
    expect(logger.atOrAbove('warn')).toEqual([]);
  });
});
