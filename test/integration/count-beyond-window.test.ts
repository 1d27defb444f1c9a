/**
 * A provider or proxy that reports a prompt count far beyond the window for requests it accepts. The thirty-third
 * outside trial: a proxy reporting 80,000 on an 8k window made the guard compact 11 of 12 turns, silently. The count
 * must not calibrate the estimate, and the user must be told once, with where the window came from.
 */
import { InMemorySessionService, LlmAgent, Runner, type LlmRequest, type LlmResponse } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard, tiktokenTokenizer, type ContextGuardOptions } from '../../src/index.js';
import { CapturingLogger, ScriptedLlm, tokenizerTokenCounter } from '../../src/testing/index.js';
import { APP_NAME, userMessage } from '../support/agent-harness.js';

const WINDOW = 8_000;
const REPORTED = 80_000;

/** The model answers within its window; the count it reports is `reported` whatever it was sent. */
class MiscountingLlm extends ScriptedLlm {
  override async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    for await (const response of super.generateContentAsync(request))
      yield response.usageMetadata
        ? { ...response, usageMetadata: { ...response.usageMetadata, promptTokenCount: REPORTED } }
        : response;
  }
}

async function run(options: ContextGuardOptions, modelName: string) {
  const model = new MiscountingLlm({
    model: modelName,
    window: WINDOW,
    countTokens: tokenizerTokenCounter(tiktokenTokenizer),
    script: ({ index }) => ({ content: { role: 'model', parts: [{ text: `Noted ${index}.` }] } }),
  });
  const logger = new CapturingLogger();
  const summarizer = { name: 's', summarize: async () => ({ text: 'Earlier notes.' }) };
  const guard = new ContextGuard({ logger, summarizer, ...options });
  const agent = new LlmAgent({ name: 'worker', model, instruction: 'You take notes.' });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] });
  const session = await sessionService.createSession({ appName: APP_NAME, userId: 'u' });
  const errors: string[] = [];
  for (let turn = 0; turn < 12; turn++)
    for await (const event of runner.runAsync({
      userId: 'u',
      sessionId: session.id,
      newMessage: userMessage(`Note ${turn}: the meeting room is R-${100 + turn} on floor ${turn % 5}.`),
    }))
      if (event.errorCode) errors.push(String(event.errorCode));
  const stored = await sessionService.getSession({ appName: APP_NAME, userId: 'u', sessionId: session.id });
  return { status: guard.status(stored, 'worker'), errors, logger };
}

describe('a prompt count beyond the window, for requests the model accepted', () => {
  it.each([
    ['set in the options', { contextWindow: WINDOW }, 'scripted-proxy', WINDOW, /set in the options/],
    ['the model registry gives', {}, 'gemma-2-9b', 8_192, /the guard knows for 'gemma-2-9b'/],
  ] as const)(
    'should not calibrate from it nor compact for it, and warn once, when the window is the one %s',
    async (_, options, modelName, window, origin) => {
      const { status, errors, logger } = await run(options, modelName);
      expect(errors).toEqual([]);
      expect(status.compactions).toBe(0);
      expect(status.calibrated).toBe(false);
      // Billed as reported, the only figure there is: a `contextWindow` set below the model's, to spend less, sees
      // honest counts over it (a video the estimate prices low), and hiding them would hide money spent (review 39).
      expect(status.promptTokens).toBe(12 * REPORTED);
      const warned = logger.matching(/reported 80000 prompt tokens for a request it accepted/);
      expect(warned).toHaveLength(1);
      expect(warned[0]?.message).toMatch(origin);
      expect(warned[0]?.message).toContain(`window of ${window} tokens`);
      expect(warned[0]?.message).toContain('billed as reported');
    },
  );
});
