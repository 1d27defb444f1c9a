/**
 * An agent's own `afterToolCallback` under the guard's plugin (the twentieth outside trial). ADK 2.0.0 skips every
 * agent after-tool callback once a plugin returns a value, so a result the guard cut reached the model, the session
 * and its offloaded artifact without the agent's redaction. The guard runs them first when it cuts, once each.
 */
import { FunctionTool, InMemoryArtifactService, InMemorySessionService, LlmAgent, Runner } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { proseText, ScriptedLlm, ratioTokenCounter, type ModelScript } from '../../src/testing/index.js';
import { APP_NAME, userMessage } from '../support/agent-harness.js';

const SSN = '123-45-6789';
const redact = (value: unknown): Record<string, unknown> =>
  JSON.parse(JSON.stringify(value).split(SSN).join('[REDACTED]')) as Record<string, unknown>;

/** Calls `fetch_doc` once, then answers. */
const script: ModelScript = ({ request }) =>
  request.contents.at(-1)?.parts?.some((part) => part.functionResponse)
    ? { content: { role: 'model', parts: [{ text: 'Read it.' }] } }
    : { content: { role: 'model', parts: [{ functionCall: { name: 'fetch_doc', args: {} } }] } };

async function run(chars: number, callbacks: 'redact' | 'observe' | 'throw') {
  let calls = 0;
  const model = new ScriptedLlm({ window: 200_000, countTokens: ratioTokenCounter(1), script });
  const agent = new LlmAgent({
    name: 'worker',
    model,
    instruction: 'You read documents.',
    tools: [
      new FunctionTool({
        name: 'fetch_doc',
        description: 'Reads a document.',
        parameters: { type: 'OBJECT', properties: {} } as never,
        execute: () => ({ body: `Customer SSN ${SSN}. ${proseText(chars, 1)}` }),
      }),
    ],
    afterToolCallback: ({ response }) => {
      calls++;
      if (callbacks === 'throw') throw new Error('redaction service down');
      return callbacks === 'redact' ? { ...redact(response), citation: 'doc-7' } : undefined;
    },
  });
  const sessionService = new InMemorySessionService();
  const artifactService = new InMemoryArtifactService();
  const guard = new ContextGuard({ contextWindow: 200_000 });
  const runner = new Runner({ appName: APP_NAME, agent, sessionService, artifactService, plugins: [guard] });
  const session = await sessionService.createSession({ appName: APP_NAME, userId: 'alice' });
  const errors: string[] = [];
  for await (const event of runner.runAsync({
    userId: 'alice',
    sessionId: session.id,
    newMessage: userMessage('Read.'),
  }))
    if (event.errorMessage !== undefined && errors.push(event.errorMessage) > 0) break;
  const stored = await sessionService.getSession({ appName: APP_NAME, userId: 'alice', sessionId: session.id });
  const response = stored!.events.flatMap((event) => event.content?.parts ?? []).find((part) => part.functionResponse)
    ?.functionResponse?.response;
  const keys = await artifactService.listArtifactKeys({ appName: APP_NAME, userId: 'alice', sessionId: session.id });
  const artifacts = await Promise.all(
    keys.map((filename) =>
      artifactService.loadArtifact({ appName: APP_NAME, userId: 'alice', sessionId: session.id, filename }),
    ),
  );
  return {
    errors,
    calls,
    response,
    sent: JSON.stringify(model.requests.map((request) => request.contents)),
    artifacts: artifacts.map((part) => Buffer.from(part?.inlineData?.data ?? '', 'base64').toString()),
  };
}

describe("an agent's own afterToolCallback under the guard's plugin", () => {
  it("should let what the agent's callback throws go on, named as the agent's, not the guard's", async () => {
    // ADK turns it into an error event (the run goes on): there, the agent's own message, and whose it is.
    const [error] = (await run(40_000, 'throw')).errors;
    expect(error).toContain('redaction service down');
    expect(error).toContain("agent 'worker': its own afterToolCallback threw on tool 'fetch_doc'");
  });

  it('should run on a result the guard cuts, before the cut, once: the model, the session and the artifact get its work', async () => {
    const big = await run(40_000, 'redact');
    expect(big.response?.['full_result_artifact']).toBeDefined();
    expect(big.artifacts.length).toBeGreaterThan(0);
    expect(big.calls).toBe(1);
    for (const text of [big.sent, JSON.stringify(big.response), ...big.artifacts]) expect(text).not.toContain(SSN);
    expect(big.sent).toContain('[REDACTED]');
    expect(JSON.stringify(big.response)).toContain('doc-7');
  });

  it('should run once, by ADK, on a result the guard leaves whole, and once on a cut one when it returns nothing', async () => {
    const small = await run(2_000, 'redact');
    expect(small.response?.['full_result_artifact']).toBeUndefined();
    expect(small.calls).toBe(1);
    expect(small.sent).not.toContain(SSN);
    const observed = await run(40_000, 'observe');
    expect(observed.calls).toBe(1);
    expect(observed.response?.['full_result_artifact']).toBeDefined();
  });
});
