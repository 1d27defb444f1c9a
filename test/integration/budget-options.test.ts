/**
 * The budget options under a window the guard learns only at run time (the model registry,
 * `modelWindows`, a provider's rejection): a `bufferTokens` written for a larger window (the README's
 * old 50,000 on a 32k model) uses that window's default buffer with one warning, instead of a
 * threshold of 1 that compacted every call; a `hardLimitRatio` below the threshold a `bufferTokens`
 * sets caps it, with one warning, so no request is knowingly sent above the hard limit.
 */
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { CapturingLogger, ScriptedLlm, ScriptedSummarizer, ratioTokenCounter } from '../../src/testing/index.js';
import { createHarness, toolThenAnswerScript } from '../support/agent-harness.js';

const BUFFER_WARNING =
  /agent 'worker': bufferTokens 50000 is more than 50% of model 'scripted-model''s (\d+)-token window/;

function model(window: number): ScriptedLlm {
  return new ScriptedLlm({ window, countTokens: ratioTokenCounter(2), script: toolThenAnswerScript(1_500) });
}

async function run(guard: ContextGuard, llm: ScriptedLlm, turns: number) {
  const harness = createHarness({ model: llm, plugins: [guard] });
  const session = await harness.sessionAfterTurns(turns);
  const answered = llm.requests.filter((request) => !request.rejected && request.agentName === 'worker');
  return { status: guard.status(session, 'worker'), answered };
}

describe('budget options under a window known at run time', () => {
  it('should use the default buffer of a modelWindows window a bufferTokens is too large for, and say so once', async () => {
    const logger = new CapturingLogger();
    const guard = new ContextGuard({
      agents: { worker: { bufferTokens: 50_000 } },
      modelWindows: { 'scripted-model': 32_000 },
      summarizer: new ScriptedSummarizer(),
      logger,
    });
    const { status, answered } = await run(guard, model(32_000), 40);
    // 20% of 32,000 = 6,400: threshold 25,600 (it was 1: every call compacted)
    expect({ threshold: status.threshold, hardLimit: status.hardLimit }).toEqual({
      threshold: 25_600,
      hardLimit: 30_400,
    });
    expect(logger.matching(BUFFER_WARNING)).toHaveLength(1);
    expect(logger.matching(BUFFER_WARNING)[0]?.message).toMatch(/\(6400; threshold 25600\)/);
    // ~1.9K a turn, old results masked for cost: requests grow to ~14K with no compaction (it was one a call, ~400-1,200 sent).
    expect(status.compactions).toBeLessThanOrEqual(1);
    expect(Math.max(...answered.map((request) => request.promptTokens))).toBeGreaterThan(8_000);
  });

  it('should use the default buffer of a window learned from a rejection', async () => {
    const logger = new CapturingLogger();
    const llm = model(8_000);
    const guard = new ContextGuard({
      agents: { worker: { bufferTokens: 50_000 } },
      summarizer: new ScriptedSummarizer(),
      logger,
    });
    const { status, answered } = await run(guard, llm, 30);
    expect({ window: status.window, source: status.windowSource, threshold: status.threshold }).toEqual({
      window: 8_000,
      source: 'learned',
      threshold: 6_400,
    });
    expect(llm.rejectedRequests).toHaveLength(1);
    // One warning for the assumed 128k window (50,000 fits it) would be none; the learned 8k one warns.
    expect(logger.matching(BUFFER_WARNING).map((entry) => entry.message.match(BUFFER_WARNING)?.[1])).toEqual(['8000']);
    expect(status.compactions + status.maskings).toBeLessThan(15);
    expect(Math.max(...answered.map((request) => request.promptTokens))).toBeGreaterThan(4_000);
  });

  it('should cap the threshold at a hardLimitRatio below the threshold bufferTokens sets, and say so once', async () => {
    const logger = new CapturingLogger();
    const guard = new ContextGuard({
      bufferTokens: 100,
      hardLimitRatio: 0.6,
      modelWindows: { 'scripted-model': 8_000 },
      summarizer: new ScriptedSummarizer(),
      logger,
    });
    const { status, answered } = await run(guard, model(8_000), 25);
    expect({ threshold: status.threshold, hardLimit: status.hardLimit }).toEqual({
      threshold: 4_800,
      hardLimit: 4_800,
    });
    expect(
      logger.matching(
        /hardLimitRatio 0.6 caps requests at 4800 tokens .* below the threshold bufferTokens 100 sets \(7900\)/,
      ),
    ).toHaveLength(1);
    // The provider's own count of what was sent: calibrated to it, within a turn's growth of the cap (it was ~7,900).
    expect(Math.max(...answered.slice(3).map((request) => request.promptTokens))).toBeLessThanOrEqual(4_800);
  });
});
