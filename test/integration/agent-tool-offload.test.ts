/**
 * A cut tool result inside an `AgentTool` child is offloaded only where it can be stored. ADK 2.0.0
 * gives the child a `ForwardingArtifactService` over the caller's tool context whether or not the
 * caller's Runner has an artifact service; without one, every save throws "Artifact service is not
 * initialized." The guard follows the forwarding to the caller's service: no store, no attempt and
 * no warning (as for an agent on a Runner without a service); with one, the child's result is
 * stored and its handle reaches the child's request.
 */
import {
  AgentTool,
  FunctionTool,
  InMemoryArtifactService,
  InMemorySessionService,
  LlmAgent,
  Runner,
} from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { CapturingLogger, ScriptedLlm, ratioTokenCounter } from '../../src/testing/index.js';
import { callThenAnswer } from '../support/call-then-answer.js';
import { APP_NAME, USER_ID, userMessage } from '../support/agent-harness.js';

const BIG = Array.from({ length: 4_000 }, (_, row) => `row ${row}: status=ok region=eu-${row % 7}`).join('\n');

function reportTool(): FunctionTool {
  return new FunctionTool({
    name: 'fetch_report',
    description: 'Returns a long report.',
    parameters: { type: 'OBJECT', properties: {} } as never,
    execute: () => ({ output: BIG }),
  });
}

async function delegateOnce(withArtifacts: boolean) {
  const logger = new CapturingLogger();
  const childModel = new ScriptedLlm({
    model: 'scripted-researcher',
    window: 64_000,
    countTokens: ratioTokenCounter(1),
    script: callThenAnswer({ call: () => ({ name: 'fetch_report', args: {} }), answer: () => 'Report read.' }),
  });
  const child = new LlmAgent({
    name: 'researcher',
    model: childModel,
    instruction: 'Research.',
    tools: [reportTool()],
  });
  const leadModel = new ScriptedLlm({
    model: 'scripted-lead',
    window: 64_000,
    countTokens: ratioTokenCounter(1),
    script: callThenAnswer({
      after: 'researcher',
      call: () => ({ name: 'researcher', args: { request: 'Read the report.' } }),
      answer: () => 'Done.',
    }),
  });
  const lead = new LlmAgent({
    name: 'lead',
    model: leadModel,
    instruction: 'Lead.',
    tools: [new AgentTool({ agent: child })],
  });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({
    appName: APP_NAME,
    agent: lead,
    sessionService,
    plugins: [new ContextGuard({ contextWindow: 64_000, logger })],
    ...(withArtifacts ? { artifactService: new InMemoryArtifactService() } : {}),
  });
  const session = await sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
  for await (const _event of runner.runAsync({
    userId: USER_ID,
    sessionId: session.id,
    newMessage: userMessage('Research it.'),
  }));
  const handles = childModel.requests
    .flatMap((request) => request.contents.flatMap((content) => content.parts ?? []))
    .filter((part) => part.functionResponse?.response?.['full_result_artifact'] !== undefined);
  return { logger, handles, childCalls: childModel.requests.length };
}

describe('a cut result inside an AgentTool child', () => {
  it('is not offloaded, and no warning is logged, when the calling Runner has no artifact service', async () => {
    const { logger, handles, childCalls } = await delegateOnce(false);
    expect(childCalls).toBe(2);
    expect(handles).toEqual([]);
    expect(logger.matching('could not store tool')).toEqual([]);
    expect(logger.atOrAbove('warn')).toEqual([]);
  });

  it("is stored through the caller's artifact service when it has one, its handle in the child's request", async () => {
    const { logger, handles } = await delegateOnce(true);
    expect(handles.length).toBeGreaterThan(0);
    expect(logger.matching('could not store tool')).toEqual([]);
  });
});
