/**
 * A "prompt too long" rejection as other providers' adapters throw it. Users wire Claude, GPT or a router into ADK
 * with their own `BaseLlm`: an adapter on an HTTP client throws a generic message with the provider's body beside it,
 * another throws the parsed body itself, an OpenAI client keeps only the code `context_length_exceeded`. The
 * twenty-eighth outside trial's 16k Claude deployment failed every turn from turn 38 (an error event each), the
 * guard reading only `error.message`; with the code alone the window was never learned and the budget line said
 * "of 200,000 tokens" at 56% of the real 16k.
 */
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { CapturingLogger, ratioTokenCounter, ScriptedLlm, ScriptedSummarizer } from '../../src/testing/index.js';
import { createHarness, errorCodes, toolThenAnswerScript } from '../support/agent-harness.js';

const REAL_WINDOW = 16_000;
const anthropicBody = (prompt: number, window: number) => ({
  type: 'error',
  error: { type: 'invalid_request_error', message: `prompt is too long: ${prompt} tokens > ${window} maximum` },
});

const SHAPES = {
  'an HTTP client error with the body on response.data': (prompt: number, window: number) =>
    Object.assign(new Error('Request failed with status code 400'), {
      config: { data: '{"messages":[]}' },
      response: { status: 400, data: anthropicBody(prompt, window) },
    }),
  'the parsed body thrown as it is': anthropicBody,
  "OpenAI's code beside a message without the provider's words": () =>
    Object.assign(new Error('400 status code (no body)'), { status: 400, code: 'context_length_exceeded' }),
} as const;

describe("a rejection in an adapter's shape", () => {
  it.each(Object.entries(SHAPES))('should be retried and learned from: %s', async (shape, rejection) => {
    const model = new ScriptedLlm({
      model: 'claude-sonnet-4-5',
      window: REAL_WINDOW,
      countTokens: ratioTokenCounter(1.2),
      script: toolThenAnswerScript(6_000),
      rejection,
    });
    // Masking for cost off: the history grows to the deployment's window as it did in the trial.
    const logger = new CapturingLogger();
    const guard = new ContextGuard({ summarizer: new ScriptedSummarizer(), logger, maskStaleOutputTokens: 0 });
    const harness = createHarness({ model, plugins: [guard] });
    const session = await harness.startSession();
    const events = await harness.runTurns(session.id, 40);

    expect(errorCodes(events)).toEqual([]);
    expect(model.rejectedRequests.length).toBeGreaterThan(0);
    const status = guard.status(await harness.storedSession(session.id), 'worker');
    expect(status.rejectedCalls).toBe(model.rejectedRequests.length);
    // Learned: the maximum the body states; with the code alone, bounded by the size of the request refused.
    expect(status.windowSource).toBe('learned');
    if (shape.startsWith('OpenAI')) expect(status.window).toBeLessThan(REAL_WINDOW * 1.25);
    else expect(status.window).toBe(REAL_WINDOW);
  });
});
