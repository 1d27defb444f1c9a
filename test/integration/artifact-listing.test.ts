/**
 * ADK's `LoadArtifactsTool` beside the guard's own artifact offload, through a real Runner: ADK lists every artifact
 * of the session in the system instruction of every request. The tenth outside trial found the guard's offloaded
 * results listed there too (96 names, 13.8 KB after 150 turns on an 8k window), an instruction nothing could shrink,
 * and 400s reaching the user. The listing now names only the user's own artifacts.
 */
import {
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
import { ratioTokenCounter, ScriptedLlm, ScriptedSummarizer } from '../../src/testing/index.js';
import { APP_NAME, USER_ID, toolThenAnswerScript, userMessage } from '../support/agent-harness.js';

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
    await artifactService.saveArtifact({
      appName: APP_NAME,
      userId: USER_ID,
      sessionId: session.id,
      filename: 'contract.pdf',
      artifact: { text: 'The contract.' },
    });
    const errors: string[] = [];
    for (let turn = 0; turn < 40; turn++)
      for await (const event of runner.runAsync({
        userId: USER_ID,
        sessionId: session.id,
        newMessage: userMessage(`Turn ${turn}: fetch the logs.`),
      }) as AsyncGenerator<Event>)
        if (event.errorCode) errors.push(event.errorCode);
    const stored = await artifactService.listArtifactKeys({
      appName: APP_NAME,
      userId: USER_ID,
      sessionId: session.id,
    });
    // The guard did offload: the listing had its names to drop.
    expect(stored.filter((name) => name.startsWith(OFFLOAD_ARTIFACT_PREFIX)).length).toBeGreaterThan(30);
    const instructions = model.requests.map((request) => request.systemInstruction ?? '');
    expect(instructions.filter((text) => text.includes(OFFLOAD_ARTIFACT_PREFIX))).toEqual([]);
    expect(instructions.every((text) => text.includes('["contract.pdf"]'))).toBe(true);
    expect(errors).toEqual([]);
  });
});
