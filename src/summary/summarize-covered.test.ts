import { describe, expect, it } from 'vitest';
import { modelText, userText } from '../../test/support/builders.js';
import { characterTokenizer } from '../../test/support/tokenizers.js';
import { planCompaction } from '../budget/compaction-plan.js';
import type { SummarizeFn, SummarizeRequest, SummaryOutcome } from './summarizer.js';
import { MIN_CACHED_PREFIX_TOKENS } from '../cost/cache-terms.js';
import { summarizeCovered, type SummarizeInput } from './summarize-covered.js';

const OK: SummaryOutcome = { ok: true, text: 'The user asked about logs.', truncated: false };

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
    split: { coverage: { covered: 2 }, toCover: [0, 1] },
    previous: undefined,
    plan,
    tokenizer: characterTokenizer,
    summarize: undefined,
    fingerprints: ['f0', 'f1', 'f2'],
    now: 1,
  };

  it('should summarize the covered view entries and quote the current request', async () => {
    const asked: string[] = [];
    const summarize: SummarizeFn = (request, maxChars) => {
      asked.push(request.prompt);
      expect(maxChars).toBe(plan.summaryMaxChars);
      return Promise.resolve(OK);
    };
    const { record } = await summarizeCovered({ ...input, summarize });
    expect(record.text).toBe('The user asked about logs.');
    expect(record.currentRequest).toBe('current request');
    // The covered entries, 0 and 1, and not the current request's content (quoted apart from them).
    expect(asked[0]).toContain('first question');
    expect(asked[0]).toContain('first answer');
  });

  it('should fall back to the mechanical summary when the summarizer fails', async () => {
    const summary = await summarizeCovered({ ...input, summarize: () => Promise.reject(new Error('down')) });
    expect(summary.outcome).toMatchObject({ ok: false, kind: 'failed' });
    expect(summary.record.fallback).toBe(true);
    expect(summary.record.text).toContain('first question');
    expect(summary.record.text).toContain('first answer');
    expect(summary.record.text.length).toBeLessThanOrEqual(plan.summaryMaxChars);
  });

  it("should continue the agent's request only when the provider can cache it, and the own prompt otherwise", async () => {
    const asked: Omit<SummarizeRequest, 'signal'>[] = [];
    const summarize: SummarizeFn = (request) => {
      asked.push(request);
      return Promise.resolve(OK);
    };
    const leading = (tokens: number) => ({ contents: contents.slice(0, 2), tokens, factor: 1, window: 1_000_000 });
    await summarizeCovered({ ...input, summarize, fromRequest: leading(MIN_CACHED_PREFIX_TOKENS) });
    await summarizeCovered({ ...input, summarize, fromRequest: leading(MIN_CACHED_PREFIX_TOKENS - 1) });
    expect(asked[0]?.leadingContents).toEqual(contents.slice(0, 2));
    expect(asked[1]?.leadingContents).toBeUndefined();
    expect(asked[1]?.prompt).toContain('first question');
  });
});
