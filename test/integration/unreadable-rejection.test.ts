/**
 * A "prompt too long" rejection whose maximum the guard cannot read (a maximum of 0, one not over the
 * size it states, no number at all), on a model the guard does not know (assumed 128k) whose real
 * window is 8k: the guard's own measure of the rejected request bounds the window for this session,
 * so the in-call retry and every later call fit. Before, it kept the assumed 128k: the retry was
 * rejected too, and so was nearly every later turn (19 rejections in 10 turns on the trial). The bound
 * holds for this session only (a figure in the error's text, which another user's content may write,
 * is never read as it): another session of the same user starts from the assumed window again.
 */
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { CapturingLogger, ScriptedLlm, ScriptedSummarizer, ratioTokenCounter } from '../../src/testing/index.js';
import { createHarness, errorCodes, toolThenAnswerScript } from '../support/agent-harness.js';

const REAL_WINDOW = 8_000;

const geminiBody = (message: string): Error =>
  new Error(JSON.stringify({ error: { code: 400, message, status: 'INVALID_ARGUMENT' } }));

const UNREADABLE: Record<string, (promptTokens: number) => Error> = {
  'a stated maximum of 0': (n) =>
    geminiBody(`The input token count (${n}) exceeds the maximum number of tokens allowed (0).`),
  'a maximum not over the stated size': (n) =>
    geminiBody(`The input token count (${n}) exceeds the maximum number of tokens allowed (99999999999999999999).`),
  'no number at all': () => new Error('Request failed: the prompt is too long for this model.'),
  // A proxy in front of the model refusing the body's size (the fortieth outside trial: an error event every turn).
  'an HTTP 413, no words of a provider': () =>
    Object.assign(new Error('Request failed with status code 413'), { status: 413 }),
};

/** A model the guard does not know that rejects requests over 8k with `overflow`'s message. */
function strictModel(overflow: (promptTokens: number) => Error): { model: ScriptedLlm; rejected: number[] } {
  const rejected: number[] = [];
  const model = new ScriptedLlm({
    window: Number.MAX_SAFE_INTEGER,
    countTokens: ratioTokenCounter(2),
    script: toolThenAnswerScript(1_500),
    fail: ({ index, promptTokens }) => {
      if (promptTokens <= REAL_WINDOW) return undefined;
      rejected.push(index);
      return overflow(promptTokens);
    },
  });
  return { model, rejected };
}

describe('a rejection whose maximum the guard cannot read', () => {
  for (const [wording, overflow] of Object.entries(UNREADABLE)) {
    it(`should bound the session's window by the rejected request's measure (${wording})`, async () => {
      const logger = new CapturingLogger();
      const { model, rejected } = strictModel(overflow);
      const guard = new ContextGuard({ summarizer: new ScriptedSummarizer(), logger });
      const harness = createHarness({ model, plugins: [guard] });
      const session = await harness.startSession();
      const events = await harness.runTurns(session.id, 30);
      const status = guard.status(await harness.storedSession(session.id), 'worker');
      // One rejection, retried inside its call: no error reaches the user.
      expect({ rejected: rejected.length, errors: errorCodes(events), retried: status.retriedCalls }).toEqual({
        rejected: 1,
        errors: [],
        retried: 1,
      });
      expect(status.windowSource).toBe('learned');
      expect(status.window).toBeGreaterThan(REAL_WINDOW);
      expect(status.window).toBeLessThan(REAL_WINDOW * 1.5);
      expect(
        logger.matching(/taken as below the rejected request, ~\d+ tokens by the guard's measure, for this session/),
      ).toHaveLength(1);
      // The retry runs under ADK's iteration of the model, outside the plugin's callbacks: its lines name the session
      // as every other line of a call does (review 32: the rejection, compaction and retry lines named none).
      const untagged = logger
        .atOrAbove('info')
        .filter(
          (line) => line.message.startsWith('[context_guard]') && !line.message.includes(`[session ${session.id}`),
        );
      expect(untagged.map((line) => line.message)).toEqual([]);

      // Another session of the same user is not bounded by this one: it starts from the assumed window.
      const other = await harness.startSession();
      await harness.runTurns(other.id, 3);
      expect(guard.status(await harness.storedSession(other.id), 'worker').window).toBe(128_000);

      // A replica (a new guard on the same session) reads the bound from the session's state.
      const replica = new ContextGuard({ summarizer: new ScriptedSummarizer(), logger: new CapturingLogger() });
      const again = strictModel(overflow);
      const replicaHarness = createHarness({
        model: again.model,
        plugins: [replica],
        sessionService: harness.sessionService,
      });
      await replicaHarness.runTurns(session.id, 45, { from: 31 });
      expect(again.rejected).toEqual([]);
      expect(replica.status(await harness.storedSession(session.id), 'worker').window).toBe(status.window);
    });
  }
});
