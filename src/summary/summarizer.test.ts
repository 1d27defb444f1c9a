import { afterEach, describe, expect, it, vi } from 'vitest';
import { userText } from '../../test/support/builders.js';
import {
  runSummarizer,
  summarizeOrFallback,
  type SummarizeFn,
  type SummarizeRequest,
  type SummarizeResult,
  type Summarizer,
  type SummaryOutcome,
} from './summarizer.js';

const REQUEST = { prompt: 'Summarize this.', systemInstruction: 'You compact histories.', maxOutputTokens: 500 };
const OPTIONS = { timeoutMs: 1_000, maxChars: 1_500 };

/** A summarizer that answers with `answer` (or runs it) and records what it was asked. */
function fakeSummarizer(
  answer: SummarizeResult | ((request: SummarizeRequest) => Promise<SummarizeResult>),
): Summarizer & { requests: SummarizeRequest[] } {
  const requests: SummarizeRequest[] = [];
  return {
    name: 'fake',
    requests,
    summarize(request) {
      requests.push(request);
      return typeof answer === 'function' ? answer(request) : Promise.resolve(answer);
    },
  };
}

/** A summarizer that never answers unless its signal aborts. */
function hangingSummarizer(): Summarizer & { signals: AbortSignal[] } {
  const signals: AbortSignal[] = [];
  return {
    name: 'hanging',
    signals,
    summarize(request) {
      signals.push(request.signal);
      return new Promise(() => undefined);
    },
  };
}

const FALLBACK = { contents: [userText('first question')], currentRequest: 'current request', maxChars: 1_500 };

/** The verdict on `summarizer` as the guard runs it: bound by `runSummarizer`, caught by `summarizeOrFallback`. */
async function verdict(summarizer: Summarizer): Promise<SummaryOutcome> {
  const bound: SummarizeFn = (request, maxChars) => runSummarizer(summarizer, request, { ...OPTIONS, maxChars });
  return (await summarizeOrFallback(bound, REQUEST, FALLBACK)).outcome;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('summarizeOrFallback', () => {
  const OK: SummaryOutcome = { ok: true, text: 'The user asked about logs.', truncated: false };

  it("should pass the summarizer's outcome and text through", async () => {
    const made = await summarizeOrFallback(() => Promise.resolve(OK), REQUEST, FALLBACK);
    expect(made.outcome).toBe(OK);
    expect(made.text).toBe('The user asked about logs.');
  });

  it('should report an absent summarizer as unavailable, with the mechanical summary', async () => {
    const made = await summarizeOrFallback(undefined, REQUEST, FALLBACK);
    expect(made.outcome).toMatchObject({ ok: false, kind: 'unavailable' });
    expect(made.text).toMatch(/^\(Mechanical summary/);
    expect(made.text).toContain('first question');
  });

  it('should turn a rejection or a throw into a failure, with the mechanical summary', async () => {
    const rejected = await summarizeOrFallback(() => Promise.reject(new Error('boom')), REQUEST, FALLBACK);
    expect(rejected.outcome).toEqual({ ok: false, kind: 'failed', reason: 'failed: boom' });
    expect(rejected.text).toContain('first question');
    const throwing: SummarizeFn = () => {
      throw new Error('sync boom');
    };
    expect((await summarizeOrFallback(throwing, REQUEST, FALLBACK)).outcome).toEqual({
      ok: false,
      kind: 'failed',
      reason: 'failed: sync boom',
    });
  });

  it('should use the mechanical summary for a failed verdict', async () => {
    const failed: SummaryOutcome = { ok: false, kind: 'empty', reason: 'returned no text' };
    const made = await summarizeOrFallback(() => Promise.resolve(failed), REQUEST, FALLBACK);
    expect(made.outcome).toBe(failed);
    expect(made.text).toContain('first question');
  });
});

describe('runSummarizer', () => {
  describe('failures (as the guard runs it: never thrown, always reported)', () => {
    it('should report a summarizer that throws', async () => {
      const summarizer = fakeSummarizer(() => Promise.reject(new Error('503 backend unavailable')));
      expect(await verdict(summarizer)).toEqual({
        ok: false,
        kind: 'failed',
        reason: 'failed: 503 backend unavailable',
      });
    });

    it('should report a summarizer that throws synchronously, or throws something that is not an Error', async () => {
      const synchronous: Summarizer = {
        name: 'sync',
        summarize() {
          throw new Error('boom');
        },
      };
      expect(await verdict(synchronous)).toEqual({
        ok: false,
        kind: 'failed',
        reason: 'failed: boom',
      });
      expect(
        await verdict(
          // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- a summarizer that rejects with a non-Error
          fakeSummarizer(() => Promise.reject('just a string')),
        ),
      ).toEqual({ ok: false, kind: 'failed', reason: 'failed: just a string' });
    });

    it('should cut a very long error message to 300 characters', async () => {
      const outcome = await verdict(fakeSummarizer(() => Promise.reject(new Error('e'.repeat(5_000)))));
      // 'failed: ' (8) + 300
      expect(outcome.ok === false && outcome.reason.length).toBe(308);
    });

    it('should report an empty or blank answer', async () => {
      expect(await runSummarizer(fakeSummarizer({ text: '' }), REQUEST, OPTIONS)).toEqual({
        ok: false,
        kind: 'empty',
        reason: 'returned no text',
      });
      expect(await runSummarizer(fakeSummarizer({ text: ' \n\t ' }), REQUEST, OPTIONS)).toEqual({
        ok: false,
        kind: 'empty',
        reason: 'returned no text',
      });
    });

    it('should keep what an answer with no text was billed (thoughts only, a safety block)', async () => {
      const billed = fakeSummarizer({ text: '', promptTokens: 6_164, cachedPromptTokens: 6_000, outputTokens: 12 });
      expect(await runSummarizer(billed, REQUEST, OPTIONS)).toEqual({
        ok: false,
        kind: 'empty',
        reason: 'returned no text',
        promptTokens: 6_164,
        cachedPromptTokens: 6_000,
        outputTokens: 12,
      });
    });

    it('should report an answer that is not a result at all', async () => {
      const broken: Summarizer = { name: 'broken', summarize: () => Promise.resolve(JSON.parse('null')) };
      expect(await runSummarizer(broken, REQUEST, OPTIONS)).toEqual({
        ok: false,
        kind: 'empty',
        reason: 'returned no text',
      });
    });

    it('should time out, abort the summarizer and clear its timer', async () => {
      vi.useFakeTimers();
      const summarizer = hangingSummarizer();
      const pending = runSummarizer(summarizer, REQUEST, OPTIONS);
      await vi.advanceTimersByTimeAsync(999);
      expect(summarizer.signals[0]?.aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await pending).toEqual({ ok: false, kind: 'timeout', reason: 'timed out after 1000 ms' });
      expect(summarizer.signals[0]?.aborted).toBe(true);
      expect(vi.getTimerCount()).toBe(0);
    });

    it("should pass the caller's abort on to the summarizer", async () => {
      vi.useFakeTimers();
      const summarizer = hangingSummarizer();
      const caller = new AbortController();
      const pending = runSummarizer(summarizer, REQUEST, { ...OPTIONS, signal: caller.signal });
      caller.abort(new Error('turn cancelled'));
      expect(summarizer.signals[0]?.aborted).toBe(true);
      await vi.advanceTimersByTimeAsync(1_000);
      expect((await pending).ok).toBe(false);
    });
  });

  describe('answers', () => {
    it('should hand the summarizer the request and an abort signal', async () => {
      const summarizer = fakeSummarizer({ text: 'ok' });
      await runSummarizer(summarizer, REQUEST, OPTIONS);
      expect(summarizer.requests[0]).toMatchObject(REQUEST);
      expect(summarizer.requests[0]?.signal).toBeInstanceOf(AbortSignal);
    });

    it("should return the trimmed text with the provider's counts, not truncated when it stopped normally", async () => {
      const summarizer = fakeSummarizer({
        text: '  ## Current state\nAll good.\n',
        finishReason: 'STOP',
        promptTokens: 1_200,
        outputTokens: 40,
      });
      expect(await runSummarizer(summarizer, REQUEST, OPTIONS)).toEqual({
        ok: true,
        text: '## Current state\nAll good.',
        truncated: false,
        promptTokens: 1_200,
        outputTokens: 40,
      });
    });

    it('should treat an unknown finish reason as a normal stop', async () => {
      expect(await runSummarizer(fakeSummarizer({ text: 'fine' }), REQUEST, OPTIONS)).toMatchObject({
        ok: true,
        truncated: false,
      });
      expect(
        await runSummarizer(
          fakeSummarizer({ text: 'fine', finishReason: 'FINISH_REASON_UNSPECIFIED' }),
          REQUEST,
          OPTIONS,
        ),
      ).toMatchObject({ truncated: false });
    });

    it('should keep an answer cut by MAX_TOKENS, marked as truncated', async () => {
      const half = `${'s'.repeat(700)} half a summ`;
      expect(
        await runSummarizer(fakeSummarizer({ text: half, finishReason: 'MAX_TOKENS' }), REQUEST, OPTIONS),
      ).toMatchObject({ ok: true, text: half, truncated: true });
    });

    it('should fail an answer cut by MAX_TOKENS to under a quarter of the summary, as a thinking model leaves it', async () => {
      // The sixty-third outside trial: thoughts took the cap and "## Current state\nThe agent has worked through a
      // conversation" (60 characters) was kept as the summary of 48 events.
      const line = '## Current state\nThe agent has worked through a conversation';
      expect(
        await runSummarizer(fakeSummarizer({ text: line, finishReason: 'MAX_TOKENS' }), REQUEST, OPTIONS),
      ).toMatchObject({ ok: false, kind: 'cut' });
      // Stopped on its own, a short summary is a summary.
      expect(await runSummarizer(fakeSummarizer({ text: line, finishReason: 'STOP' }), REQUEST, OPTIONS)).toMatchObject(
        { ok: true, text: line, truncated: false },
      );
    });

    it('should cut an oversized answer to maxChars, marked as truncated', async () => {
      const outcome = await runSummarizer(
        fakeSummarizer({ text: 's'.repeat(5_000), finishReason: 'STOP' }),
        REQUEST,
        OPTIONS,
      );
      expect(outcome).toMatchObject({ ok: true, truncated: true });
      expect(outcome.ok && outcome.text).toBe('s'.repeat(1_500));
    });

    it('should not split an emoji when it cuts an oversized answer', async () => {
      // 1,501 units: 'a' then 750 emoji; 1,500 units would end inside the last pair.
      const outcome = await runSummarizer(fakeSummarizer({ text: `a${'😀'.repeat(750)}` }), REQUEST, OPTIONS);
      expect(outcome.ok && outcome.text).toBe(`a${'😀'.repeat(749)}`);
    });

    it('should clear its timer once answered', async () => {
      vi.useFakeTimers();
      await runSummarizer(fakeSummarizer({ text: 'ok' }), REQUEST, OPTIONS);
      expect(vi.getTimerCount()).toBe(0);
    });
  });
});
