/**
 * A summary the guard makes and does not keep (it would not make the request smaller) is billed by the provider all
 * the same. The twenty-second outside trial saw `status()` leave those calls out: 14 summarizer calls reported where
 * the model served 16 (a coding run at 8k, about 12% of the summarizer's bill).
 */
import { describe, expect, it } from 'vitest';
import { ContextGuard, type Summarizer } from '../../src/index.js';
import { CapturingLogger } from '../../src/testing/index.js';
import { callThenAnswer } from '../support/call-then-answer.js';
import { createHarness, runTurn } from '../support/agent-harness.js';

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
});
