/**
 * A summarizer that is ADK's `RoutedLlm` given its own `modelName` (review 12): its name lists none of its models, so
 * its window was an unknown model's, bounded only by the agent's; every summary request over its small model's
 * window was rejected by that model and sent again to the large one (a failover router), unseen, and the guard
 * warned of an unknown model, and that the windows of its models named no model of the app. The agent's own renamed router is read from the model itself since 661e3c0; the
 * summarizer's is now read the same way. Its summaries, and those of an agent on such a router (the agent's model is
 * the default summarizer), are priced at its models' one price, as the agent's calls are.
 */
import { InMemorySessionService, LlmAgent, RoutedLlm, Runner, type BaseLlm, type LlmRouter } from '@google/adk';
import { FunctionCallingConfigMode } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { CapturingLogger, ScriptedLlm, logText, ratioTokenCounter, type ModelScript } from '../../src/testing/index.js';
import { APP_NAME, USER_ID, fetchLogsTool, runTurn, toolThenAnswerScript } from '../support/agent-harness.js';

const failover: LlmRouter = (models, _request, error) =>
  Object.keys(models).find((key) => !(error?.failedKeys.has(key) ?? false));

function summarizerModel(model: string, window: number): ScriptedLlm {
  return new ScriptedLlm({
    model,
    window,
    countTokens: ratioTokenCounter(1.2),
    script: () => ({ content: { role: 'model', parts: [{ text: 'The logs were normal.' }] } }),
  });
}

describe('a summarizer on a renamed RoutedLlm', () => {
  it("should size every summary request to its small model's window: none rejected, no unknown-model warning", async () => {
    const small = summarizerModel('scripted-small', 8_000);
    const large = summarizerModel('scripted-large', 32_000);
    const logger = new CapturingLogger();
    const guard = new ContextGuard({
      contextWindow: 32_000,
      summarizer: new RoutedLlm({ models: { small, large }, router: failover, modelName: 'summary-router' }),
      modelWindows: { 'scripted-small': 8_000, 'scripted-large': 32_000 },
      prepareTurnsAhead: 0,
      toolOutputTruncation: false,
      logger,
    });
    const model = new ScriptedLlm({
      window: 32_000,
      countTokens: ratioTokenCounter(1.2),
      script: toolThenAnswerScript(0),
    });
    const agent = new LlmAgent({ name: 'analyst', model, instruction: 'Analyse.', tools: [fetchLogsTool()] });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] });
    const session = await sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
    for (let turn = 0; turn < 16; turn++)
      await runTurn(runner, session.id, `Turn ${turn}: read these notes. ${logText(12_000, turn)}`);
    expect(small.requests.length).toBeGreaterThan(0);
    expect(small.requests.filter((request) => request.rejected).length).toBe(0);
    expect(logger.matching("unknown model 'summary-router'")).toEqual([]);
    // The windows of its models are used: no warning that they name no model of the app.
    expect(logger.atOrAbove('warn')).toEqual([]);
  });
});

/** Answers a summary request (tool calls switched off, or no tools: the guard's own prompt) with text, else calls the tool. */
const summaryOrTool: ModelScript = (call) => {
  const mode = call.request.config?.toolConfig?.functionCallingConfig?.mode;
  const tools = call.request.config?.tools?.length ?? 0;
  if (mode === FunctionCallingConfigMode.NONE || tools === 0)
    return {
      content: { role: 'model', parts: [{ text: `## Key facts\n- The logs were normal. ${logText(400, 1)}` }] },
    };
  return toolThenAnswerScript(4_000)(call);
};

function flash(): ScriptedLlm {
  return new ScriptedLlm({
    model: 'gemini-2.5-flash',
    window: 8_000,
    countTokens: ratioTokenCounter(1.2),
    script: summaryOrTool,
  });
}

async function summarizedRun(agentModel: BaseLlm, summarizer?: BaseLlm) {
  const guard = new ContextGuard({ contextWindow: 8_000, summarizer, toolOutputTruncation: false });
  const agent = new LlmAgent({ name: 'analyst', model: agentModel, instruction: 'Analyse.', tools: [fetchLogsTool()] });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] });
  const session = await sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
  for (let turn = 0; turn < 30; turn++) await runTurn(runner, session.id, `Turn ${turn}: fetch the logs.`);
  const stored = await sessionService.getSession({ appName: APP_NAME, userId: USER_ID, sessionId: session.id });
  return guard.status(stored, 'analyst');
}

describe('the summaries made on a renamed RoutedLlm of one price', () => {
  it("should be priced at its models' price when it is the agent's model, the default summarizer, as the agent's calls are", async () => {
    const router = new RoutedLlm({
      models: { primary: flash(), backup: flash() },
      router: failover,
      modelName: 'flash-failover',
    });
    const status = await summarizedRun(router);
    expect(status.summarizerCalls).toBeGreaterThan(0);
    expect(status.unpricedSummarizerCalls).toBe(0);
    expect(status.summarizerCostUsd).toBeGreaterThan(0);
  });

  it('should be priced so when it is the summarizer option', async () => {
    const router = new RoutedLlm({
      models: { primary: flash(), backup: flash() },
      router: failover,
      modelName: 'summary-router',
    });
    const status = await summarizedRun(flash(), router);
    expect(status.summarizerCalls).toBeGreaterThan(0);
    expect(status.unpricedSummarizerCalls).toBe(0);
    expect(status.summarizerCostUsd).toBeGreaterThan(0);
  });
});
