/**
 * The warning of a mechanical summary names what the summarizer did: a summarizer that answered with no text, or one
 * that timed out, is not "unavailable" (the forty-second outside trial: a scripted model answering the summary
 * request with a tool call read as "summarizer unavailable (empty)").
 */
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { CapturingLogger, ScriptedSummarizer } from '../../src/testing/index.js';
import { createHarness, toolThenAnswerScript } from '../support/agent-harness.js';

describe("the mechanical summary's warning", () => {
  it('should say the summarizer returned no text, not that it was unavailable', async () => {
    const logger = new CapturingLogger();
    const guard = new ContextGuard({
      contextWindow: 8_000,
      summarizer: new ScriptedSummarizer({ behavior: 'empty' }),
      logger,
    });
    const harness = createHarness({ window: 8_000, ratio: 1.8, script: toolThenAnswerScript(3_000), plugins: [guard] });
    await harness.sessionAfterTurns(20);
    expect(
      logger.matching(/summarizer returned no text \(empty\); used the mechanical summary/).length,
    ).toBeGreaterThan(0);
    expect(logger.matching(/summarizer (unavailable|failed|not available)/)).toEqual([]);
  });
});
