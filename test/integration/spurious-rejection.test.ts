/**
 * A "prompt too long" rejection whose statement is not about the request sent (a spurious 400: a proxy's, a
 * transient one), through the real Runner. The eighth outside trial injected one such 400 stating 16,298 tokens
 * over 16,000 on requests of 36-2,400 tokens: on an agent's first call there was nothing to make smaller, the
 * retry was declined and the 400 reached the user; on a later call the guard's own measure of the small request
 * became the session's window (2,373), and every later request was compacted to fit it.
 */
import { LogLevel, setLogLevel } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { faultHarness } from '../support/fault-harness.js';
import { promptTooLongError } from '../../src/testing/index.js';

setLogLevel(LogLevel.ERROR);

const WINDOW = 16_000;

/** Rejects the model call at `at` (0-based, counting every call) with a size that cannot be its request. */
function spuriousAt(at: number) {
  return ({ index }: { index: number }) => (index === at ? promptTooLongError(WINDOW + 298, WINDOW) : undefined);
}

describe('a rejection that states a size the request sent cannot have', () => {
  it("should send an agent's first call again, unchanged, rather than let the 400 reach the user", async () => {
    const h = await faultHarness({
      model: 'gemini-2.5-flash',
      window: WINDOW,
      ratio: 1.2,
      toolChars: 0,
      fail: spuriousAt(0),
    });
    const outcome = await h.turn('Hello, a short message.');
    expect(outcome.errorCodes).toEqual([]);
    expect(outcome.thrown).toBeUndefined();
    const [first, second] = h.model.requests;
    expect(second?.contents).toEqual(first?.contents);
    const usage = await h.usage();
    expect(usage).toMatchObject({ rejectedCalls: 1, retriedCalls: 1, window: WINDOW });
  });

  it("should not take the small request's measure as the session's window", async () => {
    const h = await faultHarness({
      model: 'gemini-2.5-flash',
      window: WINDOW,
      ratio: 1.2,
      toolChars: 2_000,
      fail: spuriousAt(4),
    });
    for (let turn = 0; turn < 6; turn++) {
      const outcome = await h.turn(`Turn ${turn}: fetch the document and tell me what changed.`);
      expect(outcome.errorCodes).toEqual([]);
    }
    const usage = await h.usage();
    expect(usage.rejectedCalls).toBe(1);
    expect(usage.window).toBe(WINDOW);
    expect(usage.rejectedTokens).toBeUndefined();
    expect(h.guard.status({ state: await h.state() }, h.agentName).window).toBe(WINDOW);
  });

  it('should still let a second rejection of the same call reach ADK, as any call retried once', async () => {
    const h = await faultHarness({
      model: 'gemini-2.5-flash',
      window: WINDOW,
      ratio: 1.2,
      toolChars: 0,
      fail: ({ index }) => (index < 2 ? promptTooLongError(WINDOW + 298, WINDOW) : undefined),
    });
    const outcome = await h.turn('Hello, a short message.');
    expect(outcome.errorCodes).toEqual(['400']);
    expect(h.model.requests).toHaveLength(2);
  });
});
