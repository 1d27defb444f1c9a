/**
 * A model that reports no usage on the agent's calls (ADK's streamed Interactions path) but counts the guard's summary
 * requests: the summaries' counts calibrate the agent (usage/summary-correction.ts). An absurd one (NaN, Infinity,
 * 99,999,999) was clamped to the largest correction, so the agent compacted on 35 of 40 turns (the forty-seventh
 * outside trial). Such a count now teaches nothing; it is billed as reported, like any count the provider gives.
 */
import { InMemorySessionService, LlmAgent, Runner, type LlmRequest, type LlmResponse } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard, tiktokenTokenizer } from '../../src/index.js';
import {
  answeringSummaries,
  ScriptedLlm,
  summaryRequestKind,
  tokenizerTokenCounter,
  type ScriptedLlmOptions,
} from '../../src/testing/index.js';

const WINDOW = 16_000;
const estimate = tokenizerTokenCounter(tiktokenTokenizer);

/** Counts only the summary requests, and reports each as `reported` makes of its true count. */
class SummaryCountingLlm extends ScriptedLlm {
  constructor(
    options: ScriptedLlmOptions,
    private readonly reported: (count: number) => number,
  ) {
    super(options);
  }

  override async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    const summary = summaryRequestKind(request) !== undefined;
    for await (const response of super.generateContentAsync(request)) {
      const count = response.usageMetadata?.promptTokenCount;
      if (!summary) yield { ...response, usageMetadata: undefined };
      else if (count === undefined) yield response;
      else yield { ...response, usageMetadata: { ...response.usageMetadata, promptTokenCount: this.reported(count) } };
    }
  }
}

async function session(reported: (count: number) => number) {
  const script = answeringSummaries(
    ({ index }) => ({ content: { role: 'model', parts: [{ text: `ok ${index}` }] } }),
    600,
  );
  const model = new SummaryCountingLlm(
    { model: 'gemini-2.5-flash', window: WINDOW, countTokens: (request) => Math.ceil(estimate(request) * 1.8), script },
    reported,
  );
  const guard = new ContextGuard({ contextWindow: WINDOW });
  const agent = new LlmAgent({ name: 'worker', model, instruction: 'You keep notes.' });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: 'app', agent, sessionService, plugins: [guard] });
  const { id } = await sessionService.createSession({ appName: 'app', userId: 'u' });
  for (let turn = 0; turn < 40; turn++) {
    const words = Array.from(
      { length: 120 },
      (_, i) => `note-${turn}-${i} of ${(turn * 7_919 + i * 104_729) % 1_000_003}`,
    );
    for await (const _ of runner.runAsync({
      userId: 'u',
      sessionId: id,
      newMessage: { role: 'user', parts: [{ text: `turn ${turn}: ${words.join(' ')}` }] },
    }));
  }
  const stored = await sessionService.getSession({ appName: 'app', userId: 'u', sessionId: id });
  return { status: stored ? guard.status(stored, 'worker') : undefined, rejected: model.rejectedRequests.length };
}

describe("a summary request's absurd count", () => {
  it('should not be learned from', async () => {
    const honest = await session((count) => count);
    expect(honest.status?.correction).toBeCloseTo(1.8, 0);
    for (const absurd of [Number.NaN, 99_999_999]) {
      const { status, rejected } = await session(() => absurd);
      expect(rejected).toBe(0);
      expect(status?.correction ?? 1.5).toBeLessThan(5);
      // No more than the uncalibrated threshold's compactions: twice the honest run's at most, not nearly every turn.
      expect(status?.compactions).toBeLessThanOrEqual(2 * (honest.status?.compactions ?? 0));
    }
  });
});
