import { describe, expect, it } from 'vitest';
import { modelText, userText } from '../../test/support/builders.js';
import { characterTokenizer } from '../../test/support/tokenizers.js';
import { planCompaction } from '../budget/compaction-plan.js';
import type { SummaryOutcome } from '../compaction/summarizer.js';
import { runSafely, summarizeCovered, type SummarizeFn, type SummarizeInput } from './summarize-covered.js';

const REQUEST = { prompt: 'p', systemInstruction: 's', maxOutputTokens: 10 };
const OK: SummaryOutcome = { ok: true, text: 'The user asked about logs.', truncated: false };

describe('runSafely', () => {
  it('should pass the summarizer outcome through', async () => {
    expect(await runSafely(() => Promise.resolve(OK), REQUEST, 30)).toBe(OK);
  });

  it('should report an absent summarizer as unavailable', async () => {
    expect(await runSafely(undefined, REQUEST, 30)).toMatchObject({ ok: false, kind: 'unavailable' });
  });

  it('should turn a rejection or a throw into a failure', async () => {
    expect(await runSafely(() => Promise.reject(new Error('boom')), REQUEST, 30)).toEqual({
      ok: false,
      kind: 'failed',
      reason: 'failed: boom',
    });
    const throwing: SummarizeFn = () => {
      throw new Error('sync boom');
    };
    expect(await runSafely(throwing, REQUEST, 30)).toEqual({ ok: false, kind: 'failed', reason: 'failed: sync boom' });
  });
});

describe('summarizeCovered', () => {
  const contents = [userText('first question'), modelText('first answer'), userText('current request')];
  const plan = planCompaction({
    threshold: 8_000,
    correction: 1,
    fixedTokens: 0,
    inFlightTokens: 0,
    summaryMaxTokens: 100,
    compactTargetRatio: 0.5,
    summarizerWindow: 10_000,
    summarizerInputRatio: 0.5,
  });
  const input: SummarizeInput = {
    contents,
    view: contents,
    toCover: [0, 1],
    previous: undefined,
    plan,
    tokenizer: characterTokenizer,
    summarize: undefined,
  };

  it('should summarize the covered view entries and quote the current request', async () => {
    const asked: string[] = [];
    const summarize: SummarizeFn = (request, maxChars) => {
      asked.push(request.prompt);
      expect(maxChars).toBe(plan.summaryMaxChars);
      return Promise.resolve(OK);
    };
    const summarized = await summarizeCovered({ ...input, summarize });
    expect(summarized.text).toBe('The user asked about logs.');
    expect(summarized.summarizedContents).toEqual([contents[0], contents[1]]);
    expect(summarized.currentRequest).toBe('current request');
    expect(asked[0]).toContain('first answer');
  });

  it('should fall back to the mechanical summary when the summarizer fails', async () => {
    const summarized = await summarizeCovered({ ...input, summarize: () => Promise.reject(new Error('down')) });
    expect(summarized.outcome).toMatchObject({ ok: false, kind: 'failed' });
    expect(summarized.text).toContain('first question');
    expect(summarized.text.length).toBeLessThanOrEqual(plan.summaryMaxChars);
  });
});
