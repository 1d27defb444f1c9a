/**
 * A provider that cuts an over-long prompt instead of refusing it: Ollama keeps the last `num_ctx` tokens and reports
 * that many as the prompt's count. The fortieth outside trial: on a model no registry knows (128k assumed), 92 of 120
 * requests were cut, the count stayed at 8,192 while the requests grew, the learned correction fell to 1.00, and
 * nothing was said. Now the same count on growing requests is not calibrated from, and one warning names the cause.
 */
import { InMemorySessionService, LlmAgent, Runner } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard, tiktokenTokenizer } from '../../src/index.js';
import { CapturingLogger, ScriptedLlm, tokenizerTokenCounter } from '../../src/testing/index.js';
import { APP_NAME, userMessage } from '../support/agent-harness.js';

const NUM_CTX = 8_192;
const estimate = tokenizerTokenCounter(tiktokenTokenizer);

async function run(cutsPrompt: boolean, shape = { turns: 16, words: 220, opening: '' }) {
  const model = new ScriptedLlm({
    model: 'ollama/llama3.1:8b',
    window: 1_000_000_000,
    // The provider's count is 1.2 times the guard's tokenizer's; a cutting one never reports more than num_ctx.
    countTokens: (request) => {
      const real = Math.ceil(estimate(request) * 1.2);
      return cutsPrompt ? Math.min(real, NUM_CTX) : real;
    },
    script: ({ index }) => ({ content: { role: 'model', parts: [{ text: `ok ${index}` }] } }),
  });
  const logger = new CapturingLogger();
  const guard = new ContextGuard({ logger, summarizer: { name: 's', summarize: async () => ({ text: 'Notes.' }) } });
  const agent = new LlmAgent({ name: 'worker', model, instruction: 'You keep notes.' });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] });
  const session = await sessionService.createSession({ appName: APP_NAME, userId: 'u' });
  for (let turn = 0; turn < shape.turns; turn++) {
    const words = Array.from(
      { length: shape.words },
      (_, i) => `note-${turn}-${i} of ${(turn * 7_919 + i * 104_729) % 1_000_003}`,
    );
    if (turn === 0) words.unshift(shape.opening);
    for await (const _ of runner.runAsync({
      userId: 'u',
      sessionId: session.id,
      newMessage: userMessage(`turn ${turn}: ${words.join(' ')}`),
    }));
  }
  const stored = await sessionService.getSession({ appName: APP_NAME, userId: 'u', sessionId: session.id });
  return { status: guard.status(stored, 'worker'), logger, model };
}

describe('a provider that cuts the prompt instead of refusing it', () => {
  it('should say so once and not calibrate from the counts that stopped growing', async () => {
    const { status, logger, model } = await run(true);
    // The stand-in did cut requests: the test is about a provider that does.
    expect(model.requests.filter((request) => request.promptTokens === NUM_CTX).length).toBeGreaterThan(5);
    expect(logger.matching(/may be cutting the prompt without refusing it/)).toHaveLength(1);
    // The ratio shown is the last one calibrated from, before the count stopped growing (8,192 over the last estimate was 0.55).
    expect(status.realToEstimateRatio).toBeGreaterThan(0.9);
  });

  it('should add up short turns that each grow the request a little (review 36: the correction slid to 1.00)', async () => {
    // A long paste, then a chat of short turns: each request is about 1% larger than the one before.
    const opening = Array.from({ length: 800 }, (_, i) => `clause ${i} of the contract`).join('; ');
    const { status, logger } = await run(true, { turns: 60, words: 12, opening });
    expect(logger.matching(/may be cutting the prompt without refusing it/)).toHaveLength(1);
    expect(status.realToEstimateRatio).toBeGreaterThan(0.9);
  });

  it('should say nothing of a provider whose counts grow with its requests', async () => {
    const { status, logger } = await run(false);
    expect(logger.matching(/cutting the prompt/)).toEqual([]);
    expect(status.correction).toBeGreaterThan(1.1);
  });
});
