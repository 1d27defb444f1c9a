/**
 * A custom `BaseLlm` for a provider whose prompt count leaves the cached tokens out (Anthropic's `input_tokens`),
 * mapped field by field onto `usageMetadata`. The fortieth outside trial: the guard read 5k for 195k sent on every
 * cached call, its learned correction fell to 1, requests went over the window (rejected, retried in the call) and
 * the bill came out 15-26 times too low, with no word. The guard reads such a report as the sum and says so once.
 */
import { type LlmRequest, type LlmResponse } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import {
  CapturingLogger,
  logText,
  ratioTokenCounter,
  ScriptedLlm,
  ScriptedSummarizer,
} from '../../src/testing/index.js';
import { callThenAnswer } from '../support/call-then-answer.js';
import { createHarness } from '../support/agent-harness.js';

const WINDOW = 24_000;
const PRICE = { input: 3, cachedInput: 0.3, output: 15 };

/** The scripted model, reporting its usage as a field-by-field mapping of Anthropic's would. */
class InputTokensOnlyLlm extends ScriptedLlm {
  override async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    for await (const response of super.generateContentAsync(request)) {
      const usage = response.usageMetadata;
      const cached = usage?.cachedContentTokenCount ?? 0;
      yield usage?.promptTokenCount === undefined
        ? response
        : { ...response, usageMetadata: { ...usage, promptTokenCount: usage.promptTokenCount - cached } };
    }
  }
}

describe('a provider whose prompt count leaves the cached tokens out', () => {
  it('should keep its requests under the window, bill every prompt token and say once what it read', async () => {
    const model = new InputTokensOnlyLlm({
      model: 'anthropic/claude-sonnet-4',
      window: WINDOW,
      // The provider counts 1.6 times the guard's estimate: a correction the guard must keep.
      countTokens: ratioTokenCounter(2.6),
      script: callThenAnswer({
        call: ({ request }) => ({ name: 'fetch_logs', args: { size: 2_400, seed: request.contents.length + 1 } }),
        answer: ({ request }) => `Analysis ${request.contents.length}: ${logText(600, request.contents.length)}`,
      }),
    });
    const logger = new CapturingLogger();
    const guard = new ContextGuard({
      contextWindow: WINDOW,
      summarizer: new ScriptedSummarizer(),
      prices: { 'anthropic/claude-sonnet-4': PRICE },
      logger,
    });
    const harness = createHarness({ model, plugins: [guard] });
    const session = await harness.sessionAfterTurns(40);

    const cachedCalls = model.requests.filter((request) => request.cachedPromptTokens > 0);
    expect(cachedCalls.length).toBeGreaterThan(20);
    expect(model.requests.filter((request) => request.rejected)).toEqual([]);
    const status = guard.status(session, 'worker');
    const accepted = model.requests.filter((request) => !request.rejected);
    expect(status.promptTokens).toBe(accepted.reduce((sum, request) => sum + request.promptTokens, 0));
    expect(status.cachedPromptTokens).toBe(accepted.reduce((sum, request) => sum + request.cachedPromptTokens, 0));
    expect(status.correction).toBeGreaterThan(1.3);
    const said = logger.atOrAbove('warn').filter((line) => line.message.includes('more cached tokens'));
    expect(said).toHaveLength(1);
  });
});
