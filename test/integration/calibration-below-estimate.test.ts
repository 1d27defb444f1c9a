/**
 * A provider that counts fewer tokens than the guard's estimate (0.8x here; code and JSON output
 * on the recorded coding runs: 0.77-0.86x), through a real Runner: the guard trusts the provider's
 * count of what it already saw, so it does not reduce while the provider's count is under the
 * threshold, though its own estimate is over it; and it still reduces in time when the provider's
 * count reaches the threshold, before the hard limit (src/estimate/calibration.ts, docs/design.md "Calibrating").
 */
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { decodeUsageRecord, stateKeysFor } from '../../src/internal.js';
import { ScriptedLlm, ScriptedSummarizer } from '../../src/testing/index.js';
import { estimatorCounter } from '../support/proportional-counter.js';
import { createHarness, toolThenAnswerScript, type Harness } from '../support/agent-harness.js';

const WINDOW = 16_000;

function cheaperProvider() {
  const model = new ScriptedLlm({
    window: WINDOW,
    countTokens: estimatorCounter(0.8),
    script: toolThenAnswerScript(1_500),
  });
  const summarizer = new ScriptedSummarizer();
  // Room reductions only: no summary prepared ahead, no masking for cost.
  const guard = new ContextGuard({
    contextWindow: WINDOW,
    summarizer,
    prepareTurnsAhead: 0,
    maskStaleOutputTokens: 1_000_000,
  });
  return { harness: createHarness({ model, plugins: [guard] }), model, summarizer };
}

async function usageOf(harness: Harness, sessionId: string) {
  const session = await harness.storedSession(sessionId);
  return decodeUsageRecord(session.state[stateKeysFor('worker').usage]);
}

/** Runs turns until the provider's count of the last request is within one turn's growth of the threshold (40 at most). */
async function runToThreshold(harness: Harness, model: ScriptedLlm, sessionId: string): Promise<number> {
  let previous = 0;
  for (let turn = 1; ; turn++) {
    await harness.runTurns(sessionId, turn, { from: turn });
    const real = model.requests.at(-1)!.promptTokens;
    const { threshold } = await usageOf(harness, sessionId);
    if (real + (real - previous) >= threshold! || turn === 40) return turn;
    previous = real;
  }
}

describe('a provider that counts below the estimate', () => {
  it("should not reduce while the provider's count is under the threshold, though the estimate is over it", async () => {
    const { harness, model, summarizer } = cheaperProvider();
    const session = await harness.startSession();
    await runToThreshold(harness, model, session.id);
    const usage = await usageOf(harness, session.id);
    // The guard's own estimate of the last request is over the threshold: calibration by a factor of at least 1 reduced here.
    expect(usage.sentEstimate).toBeGreaterThan(usage.threshold!);
    expect(model.requests.at(-1)!.promptTokens).toBeLessThan(usage.threshold!);
    expect(usage.compactions).toBe(0);
    expect(usage.maskings).toBe(0);
    expect(summarizer.calls).toHaveLength(0);
    expect(model.rejectedRequests).toEqual([]);
    // Each request extends the one before it: nothing was removed, the provider's cached prefix holds.
    for (const [i, request] of model.requests.entries()) {
      const before = model.requests[i - 1]?.contents ?? [];
      expect(request.contents.slice(0, before.length)).toEqual(before);
    }
  });

  it("should reduce in time when the provider's count reaches the threshold, with no rejection", async () => {
    const { harness, model } = cheaperProvider();
    const session = await harness.startSession();
    const turn = await runToThreshold(harness, model, session.id);
    await harness.runTurns(session.id, turn + 4, { from: turn + 1 });
    const usage = await usageOf(harness, session.id);
    expect(usage.compactions + usage.maskings).toBeGreaterThan(0);
    expect(model.rejectedRequests).toEqual([]);
    // Every request the provider received was under the hard limit by its own count (a masking that is enough waits
    // past the threshold for the call that needs it: docs/design.md, "A masking for room waits for the call that needs it").
    for (const request of model.requests) expect(request.promptTokens).toBeLessThanOrEqual(usage.hardLimit!);
  });
});
