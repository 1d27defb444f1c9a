/**
 * A summarizer that is ADK's `RoutedLlm` given its own `modelName` (review 12): its name lists none of its models, so
 * its window was an unknown model's, bounded only by the agent's; every summary request over its small model's
 * window was rejected by that model and sent again to the large one (a failover router), unseen, and the guard
 * warned of an unknown model, and that the windows of its models named no model of the app. The agent's own renamed router is read from the model itself since 661e3c0; the
 * summarizer's is now read the same way.
 */
import { InMemorySessionService, LlmAgent, RoutedLlm, Runner, type LlmRouter } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { CapturingLogger, ScriptedLlm, logText, ratioTokenCounter } from '../../src/testing/index.js';
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
