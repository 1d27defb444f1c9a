/**
 * ADK's `LoadArtifactsTool` listing in an app with an `AgentTool` child. ADK runs the child in a Runner whose app is
 * named after the child, over a `ForwardingArtifactService`: the child's offloaded results are saved in the caller's
 * session under the child's app segment, and each side lists the other's. Review 12 found the listing dropping only
 * the names of the app of the request: the lead's instruction listed every offloaded result of its child (and the
 * child's every result of the lead), the growing list of names that 1003ef7 took out for a single agent.
 */
import {
  AgentTool,
  FunctionTool,
  InMemoryArtifactService,
  InMemorySessionService,
  LlmAgent,
  LOAD_ARTIFACTS,
  Runner,
  type Event,
} from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { OFFLOAD_ARTIFACT_PREFIX } from '../../src/internal.js';
import { ratioTokenCounter, ScriptedLlm } from '../../src/testing/index.js';
import { callThenAnswer } from '../support/call-then-answer.js';
import { APP_NAME, USER_ID, userMessage } from '../support/agent-harness.js';

/** A log of about 14 KB, over the offload limit, different on every call. */
function fetchLogs(): FunctionTool {
  let call = 0;
  return new FunctionTool({
    name: 'fetch_logs',
    description: 'Returns server logs.',
    execute: () => ({ logs: `call ${++call}: ${'GET /api/orders 200 12ms\n'.repeat(560)}` }),
  });
}

function scripted(name: string, script: ReturnType<typeof callThenAnswer>): ScriptedLlm {
  return new ScriptedLlm({ model: name, window: 32_000, countTokens: ratioTokenCounter(1.2), script });
}

function delegatingApp() {
  const childModel = scripted(
    'scripted-child',
    callThenAnswer({ call: () => ({ name: 'fetch_logs', args: {} }), answer: () => 'Logs read.' }),
  );
  const child = new LlmAgent({
    name: 'researcher',
    model: childModel,
    instruction: 'Research.',
    tools: [fetchLogs(), LOAD_ARTIFACTS],
  });
  // Each turn the lead fetches logs itself, then asks the child, then answers.
  const leadModel = scripted('scripted-lead', ({ request }) => {
    const last = request.contents.at(-1)?.parts?.[0]?.functionResponse?.name;
    if (last === 'researcher') return { content: { role: 'model', parts: [{ text: 'Done.' }] } };
    const call =
      last === 'fetch_logs' ? { name: 'researcher', args: { request: 'Go.' } } : { name: 'fetch_logs', args: {} };
    return { content: { role: 'model', parts: [{ functionCall: call }] } };
  });
  const lead = new LlmAgent({
    name: 'lead',
    model: leadModel,
    instruction: 'Lead.',
    tools: [fetchLogs(), new AgentTool({ agent: child }), LOAD_ARTIFACTS],
  });
  const sessionService = new InMemorySessionService();
  const artifactService = new InMemoryArtifactService();
  const guard = new ContextGuard({ contextWindow: 32_000 });
  const runner = new Runner({ appName: APP_NAME, agent: lead, sessionService, artifactService, plugins: [guard] });
  return { runner, sessionService, artifactService, leadModel, childModel };
}

describe("ADK's artifact listing with an AgentTool child", () => {
  it("should list none of the guard's offloaded results, the lead's or the child's, in either agent's instruction", async () => {
    const { runner, sessionService, artifactService, leadModel, childModel } = delegatingApp();
    const session = await sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
    const errors: string[] = [];
    for (let turn = 0; turn < 3; turn++)
      for await (const event of runner.runAsync({
        userId: USER_ID,
        sessionId: session.id,
        newMessage: userMessage(`Turn ${turn}: look into it.`),
      }) as AsyncGenerator<Event>)
        if (event.errorCode) errors.push(event.errorCode);
    const stored = await artifactService.listArtifactKeys({
      appName: APP_NAME,
      userId: USER_ID,
      sessionId: session.id,
    });
    // Both agents offloaded into the lead's session: there were names of both apps to drop.
    expect(stored.filter((name) => name.startsWith(`${OFFLOAD_ARTIFACT_PREFIX}app=researcher`)).length).toBe(3);
    expect(stored.filter((name) => name.startsWith(`${OFFLOAD_ARTIFACT_PREFIX}app=${APP_NAME}`)).length).toBe(3);
    const listed = (model: ScriptedLlm) =>
      model.requests.filter((request) => (request.systemInstruction ?? '').includes(OFFLOAD_ARTIFACT_PREFIX)).length;
    expect([listed(leadModel), listed(childModel)]).toEqual([0, 0]);
    expect(errors).toEqual([]);
  });
});
