/**
 * A sub-agent with no model of its own calls its parent's (ADK's `canonicalModel`): when that is a `RoutedLlm` given
 * its own name and `prices` names it, the sub-agent's calls must be billed at that price, as the parent's are and as
 * its own requests' masking trade weighs them (the request's model is the router's name). Review 13 found them billed
 * at the router's models' default price: the bill read the agent's own `model` (none) and then its listing.
 */
import { InMemorySessionService, LlmAgent, RoutedLlm, Runner, type LlmRouter } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { ratioTokenCounter, ScriptedLlm, ScriptedSummarizer, type ModelScript } from '../../src/testing/index.js';
import { APP_NAME, fetchLogsTool, runTurn, toolThenAnswerScript, USER_ID } from '../support/agent-harness.js';

const failover: LlmRouter = (models, _request, error) =>
  Object.keys(models).find((key) => !(error?.failedKeys.has(key) ?? false));

/** The lead hands the first turn to the worker; the worker fetches the logs and answers. */
const script: ModelScript = (call) => {
  const declared = JSON.stringify(call.request.config?.tools ?? []);
  if (declared.includes('transfer_to_agent'))
    return {
      content: {
        role: 'model',
        parts: [{ functionCall: { name: 'transfer_to_agent', args: { agentName: 'worker' } } }],
      },
    };
  return toolThenAnswerScript(3_000)(call);
};

const flash = () =>
  new ScriptedLlm({ model: 'gemini-2.5-flash', window: 1_048_576, countTokens: ratioTokenCounter(1.2), script });

async function workerCost(inherit: boolean): Promise<number | undefined> {
  const router = new RoutedLlm({
    models: { primary: flash(), backup: flash() },
    router: failover,
    modelName: 'my-router',
  });
  const prices = { 'my-router': { input: 10, cachedInput: 10, output: 20 } };
  const guard = new ContextGuard({ summarizer: new ScriptedSummarizer(), prices });
  const worker = new LlmAgent({
    name: 'worker',
    ...(inherit ? {} : { model: router }),
    instruction: 'You analyse server logs.',
    tools: [fetchLogsTool()],
    disallowTransferToParent: true,
    disallowTransferToPeers: true,
  });
  const lead = new LlmAgent({ name: 'lead', model: router, instruction: 'Delegate.', subAgents: [worker] });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: APP_NAME, agent: lead, sessionService, plugins: [guard] });
  const session = await sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
  for (let turn = 0; turn < 3; turn++)
    for (const event of await runTurn(runner, session.id, `Turn ${turn}: fetch the logs.`))
      expect([event.errorCode, event.errorMessage]).toEqual([undefined, undefined]);
  const stored = await sessionService.getSession({ appName: APP_NAME, userId: USER_ID, sessionId: session.id });
  const status = guard.status(stored, 'worker');
  expect(status.unpricedCalls).toBe(0);
  return status.costUsd;
}

describe("a sub-agent on its parent's renamed RoutedLlm, priced under the router's name", () => {
  it('should bill its calls at that price, as when the router is its own model', async () => {
    const own = await workerCost(false);
    expect(own).toBeGreaterThan(0);
    expect(await workerCost(true)).toBe(own);
  });
});
