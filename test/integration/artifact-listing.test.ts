/**
 * ADK's `LoadArtifactsTool` beside the guard's own artifact offload, through a real Runner: ADK lists every artifact
 * of the session in the system instruction of every request. The tenth outside trial found the guard's offloaded
 * results listed there too (96 names, 13.8 KB after 150 turns on an 8k window), an instruction nothing could shrink,
 * and 400s reaching the user. The listing now names only the user's own artifacts.
 *
 * With an `AgentTool` child: ADK runs the child in a Runner whose app is
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
import { OFFLOAD_ARTIFACT_PREFIX } from '../../src/index.js';
import { ratioTokenCounter, ScriptedLlm, ScriptedSummarizer } from '../../src/testing/index.js';
import { APP_NAME, USER_ID, toolThenAnswerScript, userMessage } from '../support/agent-harness.js';
import { callThenAnswer } from '../support/call-then-answer.js';
import { saveUserArtifact } from '../support/user-artifact.js';

/** A log of about 14 KB, over the offload limit, different on every call. */
function fetchLogs(): FunctionTool {
  let call = 0;
  return new FunctionTool({
    name: 'fetch_logs',
    description: 'Returns server logs.',
    execute: () => ({ logs: `call ${++call}: ${'GET /api/orders 200 12ms\n'.repeat(560)}` }),
  });
}

describe("ADK's artifact listing beside the guard's offload", () => {
  it("should list the user's artifacts and none of the guard's offloaded results, with no error event", async () => {
    const artifactService = new InMemoryArtifactService();
    const model = new ScriptedLlm({
      window: 8_000,
      countTokens: ratioTokenCounter(1.2),
      script: toolThenAnswerScript(100),
    });
    const agent = new LlmAgent({
      name: 'analyst',
      model,
      instruction: 'You analyse server logs.',
      tools: [fetchLogs(), LOAD_ARTIFACTS],
    });
    const guard = new ContextGuard({ contextWindow: 8_000, summarizer: new ScriptedSummarizer() });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: APP_NAME, agent, sessionService, artifactService, plugins: [guard] });
    const session = await sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
    await saveUserArtifact(artifactService, session.id, 'contract.pdf', 'The contract.');
    const { errors, stored } = await turnsAndArtifacts(runner, artifactService, session.id, 40, 'fetch the logs.');
    // The guard did offload: the listing had its names to drop.
    expect(stored.filter((name) => name.startsWith(OFFLOAD_ARTIFACT_PREFIX)).length).toBeGreaterThan(30);
    const instructions = model.requests.map((request) => request.systemInstruction ?? '');
    expect(instructions.filter((text) => text.includes(OFFLOAD_ARTIFACT_PREFIX))).toEqual([]);
    expect(instructions.every((text) => text.includes('["contract.pdf"]'))).toBe(true);
    expect(errors).toEqual([]);
  });
});

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
    const { errors, stored } = await turnsAndArtifacts(runner, artifactService, session.id, 3, 'look into it.');
    // Both agents offloaded into the lead's session: there were names of both apps to drop.
    expect(stored.filter((name) => name.startsWith(`${OFFLOAD_ARTIFACT_PREFIX}app=researcher`)).length).toBe(3);
    expect(stored.filter((name) => name.startsWith(`${OFFLOAD_ARTIFACT_PREFIX}app=${APP_NAME}`)).length).toBe(3);
    const listed = (model: ScriptedLlm) =>
      model.requests.filter((request) => (request.systemInstruction ?? '').includes(OFFLOAD_ARTIFACT_PREFIX)).length;
    expect([listed(leadModel), listed(childModel)]).toEqual([0, 0]);
    expect(errors).toEqual([]);
  });
});

/** `turns` turns of the test user's session: the error events, then the artifact names its session holds. */
async function turnsAndArtifacts(
  runner: Runner,
  artifactService: InMemoryArtifactService,
  sessionId: string,
  turns: number,
  text: string,
): Promise<{ errors: string[]; stored: string[] }> {
  const errors: string[] = [];
  for (let turn = 0; turn < turns; turn++)
    for await (const event of runner.runAsync({
      userId: USER_ID,
      sessionId,
      newMessage: userMessage(`Turn ${turn}: ${text}`),
    }) as AsyncGenerator<Event>)
      if (event.errorCode) errors.push(event.errorCode);
  const stored = await artifactService.listArtifactKeys({ appName: APP_NAME, userId: USER_ID, sessionId });
  return { errors, stored };
}
