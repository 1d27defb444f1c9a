/**
 * `status().correction` is the factor in force, clamped to 1–5 as the docs say, and
 * `realToEstimateRatio` the raw ratio of the last real count over its estimate, through a real
 * Runner whose scripted provider counts far more, or fewer, tokens than the estimate.
 */
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { ScriptedSummarizer } from '../../src/testing/index.js';
import { createHarness, toolThenAnswerScript } from '../support/agent-harness.js';

async function statusAtRatio(ratio: number) {
  const guard = new ContextGuard({ contextWindow: 200_000, summarizer: new ScriptedSummarizer() });
  const harness = createHarness({ window: 200_000, ratio, script: toolThenAnswerScript(2_000), plugins: [guard] });
  const session = await harness.sessionAfterTurns(2);
  const last = harness.model.requests.at(-1)!;
  return { status: guard.status(session, 'worker'), realPromptTokens: last.promptTokens };
}

describe('status correction', () => {
  it('should report the clamped factor as correction and the raw ratio apart, for a provider counting far more', async () => {
    const { status, realPromptTokens } = await statusAtRatio(9);
    expect(status.lastRealPromptTokens).toBe(realPromptTokens);
    expect(status.calibrated).toBe(true);
    expect(status.realToEstimateRatio).toBeGreaterThan(5);
    expect(status.correction).toBe(5);
  });

  it('should report the clamped factor as correction and the raw ratio apart, for a provider counting fewer', async () => {
    const { status } = await statusAtRatio(0.5);
    expect(status.realToEstimateRatio).toBeLessThan(1);
    expect(status.correction).toBe(1);
  });

  it('should report the factor itself when the ratio is within the clamp', async () => {
    const { status } = await statusAtRatio(2);
    expect(status.realToEstimateRatio).toBeGreaterThan(1);
    expect(status.realToEstimateRatio).toBeLessThan(5);
    expect(status.correction).toBe(status.realToEstimateRatio);
  });
});
