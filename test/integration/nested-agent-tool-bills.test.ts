/**
 * A coordinator calls `mid` as an `AgentTool`, which calls `leaf` as one. ADK runs each child in a Runner without
 * plugins: the coordinator's session gets every call of both on the answers of its calls (records/child-calls.ts),
 * and nothing waits in the process for an answer no plugin sees (mid's answer to its leaf call: review 45 found
 * one entry kept for good per nested call).
 */
import { AgentTool, App, InMemorySessionService, LlmAgent, Runner } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { ratioTokenCounter, ScriptedLlm, type ModelScript } from '../../src/testing/index.js';
import { runTurn, USER_ID } from '../support/agent-harness.js';

const say = (text: string) => ({ content: { role: 'model', parts: [{ text }] } });
const call = (name: string) => ({
  content: { role: 'model', parts: [{ functionCall: { name, args: { request: 'go' } } }] },
});

/** The leaf answers; mid and the coordinator call the agent below them, then answer. */
const script: ModelScript = ({ request }) => {
  const agent = String(request.config?.labels?.['adk_agent_name'] ?? '');
  const answered = request.contents?.at(-1)?.parts?.some((part) => part.functionResponse) ?? false;
  if (agent === 'leaf') return say('leaf answer');
  if (agent === 'mid') return answered ? say('mid answer') : call('leaf');
  return answered ? say('done') : call('mid');
};

/** Finished child runs waiting in the process for the answer of their call (adk/runtime/child-calls.ts). */
function heldRuns(): number {
  const held: unknown = (globalThis as Record<symbol, unknown>)[Symbol.for('adk-context-guard.child-calls.v1')];
  return held instanceof Map ? held.size : 0;
}

describe('an AgentTool child that calls another as an AgentTool', () => {
  it("should count both children's calls in the coordinator's session and hold nothing once the turns end", async () => {
    const model = new ScriptedLlm({ window: 32_000, countTokens: ratioTokenCounter(1.3), script });
    const leaf = new LlmAgent({ name: 'leaf', model, description: 'Answers.' });
    const mid = new LlmAgent({
      name: 'mid',
      model,
      description: 'Asks the leaf.',
      tools: [new AgentTool({ agent: leaf })],
    });
    const coordinator = new LlmAgent({ name: 'coordinator', model, tools: [new AgentTool({ agent: mid })] });
    const guard = new ContextGuard({ contextWindow: 32_000 });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({
      app: new App({ name: 'app', rootAgent: coordinator, plugins: [guard] }),
      sessionService,
    });
    const session = await sessionService.createSession({ appName: 'app', userId: USER_ID });
    const before = heldRuns();
    for (let turn = 0; turn < 5; turn++) await runTurn(runner, session.id, `turn ${turn}`);
    expect(heldRuns()).toBe(before);
    const stored = await sessionService.getSession({ appName: 'app', userId: USER_ID, sessionId: session.id });
    for (const name of ['coordinator', 'mid', 'leaf']) {
      const served = model.requests.filter((request) => !request.rejected && request.agentName === name).length;
      expect(stored && guard.status(stored, name)).toMatchObject({ modelCalls: served, countsFrom: 'events' });
    }
  });
});
