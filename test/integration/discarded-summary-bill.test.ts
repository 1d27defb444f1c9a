/**
 * A summary the guard makes and does not keep (it would not make the request smaller) is billed by the provider all
 * the same. The twenty-second outside trial saw `status()` leave those calls out: 14 summarizer calls reported where
 * the model served 16 (a coding run at 8k, about 12% of the summarizer's bill).
 */
import { describe, expect, it } from 'vitest';
import { ContextGuard, type Summarizer } from '../../src/index.js';
import { CapturingLogger, ratioTokenCounter, ScriptedLlm } from '../../src/testing/index.js';
import { callThenAnswer } from '../support/call-then-answer.js';
import { createHarness, errorCodes, runTurn, runTurns, toolThenAnswerScript } from '../support/agent-harness.js';

/** A summarizer that writes a long summary whatever it reads, and reports what the provider would bill. */
function verboseSummarizer(): Summarizer & { calls: number } {
  const summarizer = {
    name: 'verbose',
    calls: 0,
    async summarize() {
      summarizer.calls++;
      const text = `## Current state\n${'The user asked about the logs and the agent read them. '.repeat(60)}`;
      return { text, finishReason: 'STOP', promptTokens: 400, cachedPromptTokens: 0, outputTokens: 900 };
    },
  };
  return summarizer;
}

describe('a summary made and not kept', () => {
  it("should count its summarizer call in status(), the call's record and the usage totals", async () => {
    const summarizer = verboseSummarizer();
    const logger = new CapturingLogger();
    const guard = new ContextGuard({
      contextWindow: 16_000,
      summarizer,
      logger,
      // A summary scheduled after every completed turn: of short turns, it is longer than what it covers.
      strategy: 'sliding-window',
      invocationThreshold: 1,
      overlapSize: 0,
      prices: { verbose: { input: 1, cachedInput: 0.1, output: 10 } },
    });
    const script = callThenAnswer({
      call: ({ request }) => ({ name: 'fetch_logs', args: { size: 100, seed: request.contents.length } }),
      answer: () => 'Read.',
    });
    const harness = createHarness({ window: 16_000, ratio: 1, script, plugins: [guard] });
    const session = await harness.startSession();
    for (const text of ['Check the logs.', 'Check them again.', 'And once more.'])
      await runTurn(harness.runner, session.id, text);
    expect(logger.matching('would not make the request smaller').length).toBeGreaterThan(0);
    expect(summarizer.calls).toBeGreaterThan(0);
    const status = guard.status(await harness.storedSession(session.id), 'worker');
    expect(status.compactions).toBe(0);
    expect(status).toMatchObject({
      summarizerCalls: summarizer.calls,
      summarizerPromptTokens: summarizer.calls * 400,
      summarizerOutputTokens: summarizer.calls * 900,
    });
    expect(status.summarizerCostUsd).toBeCloseTo((summarizer.calls * (400 + 900 * 10)) / 1e6, 12);
  });

  it("should count the summaries of a retry's decision it did not apply (review 18)", async () => {
    // Refused as too long early on, without figures: the retry's decision compacts, its summary no smaller than what
    // it covers, so it is not applied and the rejection stands; the provider served its summarizer calls all the same.
    const tooLong = () =>
      new Error(
        JSON.stringify({ error: { code: 400, message: 'The input prompt is too long.', status: 'INVALID_ARGUMENT' } }),
      );
    const model = new ScriptedLlm({
      window: 100_000,
      countTokens: ratioTokenCounter(2),
      script: toolThenAnswerScript(100),
      fail: ({ index }) => (index === 4 ? tooLong() : undefined),
    });
    const summarizer = verboseSummarizer();
    const guard = new ContextGuard({ summarizer, prices: { verbose: { input: 1, cachedInput: 0.1, output: 10 } } });
    const harness = createHarness({ model, plugins: [guard] });
    const session = await harness.startSession();
    const events = await runTurns(harness.runner, session.id, 4);
    expect(errorCodes(events)).toEqual(['400']);
    expect(summarizer.calls).toBeGreaterThan(0);
    const status = guard.status(await harness.storedSession(session.id), 'worker');
    expect(status).toMatchObject({
      rejectedCalls: 1,
      retriedCalls: 0,
      summarizerCalls: summarizer.calls,
      summarizerPromptTokens: summarizer.calls * 400,
      summarizerOutputTokens: summarizer.calls * 900,
    });
  });
});
