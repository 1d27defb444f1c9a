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

  it("should keep the session's first sentence as a marked fact in the summary that first reads it, not before", async () => {
    // Review 48: a first summary inside the first turn keeps the task message; a later one covers it, with a previous.
    const task = userText('Write a script that counts the mondays in a year. Use Python.');
    const loop = [task, modelText('Reading the docs.'), modelText('Wrote count.py.'), userText('go on')];
    const fingerprints = loop.map((_, at) => `t${at}`);
    const first = await summarizeCovered({
      ...input,
      contents: loop,
      view: loop,
      fingerprints,
      split: { coverage: { covered: 2, keptAt: 0 }, toCover: [1, 2] },
    });
    expect(first.record.facts ?? []).toEqual([]);
    const later = await summarizeCovered({
      ...input,
      contents: loop,
      view: loop,
      fingerprints,
      previous: first.record,
      split: { coverage: { covered: 3 }, toCover: [0, 3] },
    });
    expect(later.record.facts?.map((fact) => [fact.text, fact.asked])).toEqual([
      ['Write a script that counts the mondays in a year.', true],
    ]);
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

  it("should read every covered content over several calls when the summarizer's window cannot take them at once", async () => {
    // Twelve contents of about 600 characters each against a prompt bound of 5,000 (one character a token).
    const many = Array.from({ length: 12 }, (_, i) => (i % 2 ? modelText : userText)(`item-${i} ${'x'.repeat(600)}`));
    const small = { ...plan, summarizerPromptTokens: 5_000 };
    const asked: string[] = [];
    const summarize: SummarizeFn = (request) => {
      asked.push(request.prompt);
      const read = [...request.prompt.matchAll(/item-\d+/g)].map((match) => match[0]).join(' ');
      return Promise.resolve({
        ok: true,
        text: `Read ${read}.`,
        truncated: false,
        promptTokens: 100,
        outputTokens: 10,
      });
    };
    const one = { ...input, contents: many, view: many, plan: small, summarize };
    const made = await summarizeCovered({ ...one, split: { coverage: { covered: 12 }, toCover: [...many.keys()] } });
    expect(asked.length).toBeGreaterThan(1);
    expect(asked.length).toBeLessThanOrEqual(4);
    expect(made.droppedContents).toBe(0);
    // Each content was in some call's prompt, and the last call carried what the earlier ones read.
    for (let i = 0; i < 12; i++) expect(asked.some((prompt) => prompt.includes(`item-${i} `))).toBe(true);
    expect(asked.at(-1)).toMatch(/<previous_summary>\nRead [^<]*item-0 /);
    expect(made.outcome).toMatchObject({ ok: true, promptTokens: 100 * asked.length, outputTokens: 10 * asked.length });
    // One call where the window takes everything.
    asked.length = 0;
    const wide = { ...plan, summarizerPromptTokens: 50_000 };
    await summarizeCovered({ ...one, plan: wide, split: { coverage: { covered: 12 }, toCover: [...many.keys()] } });
    expect(asked).toHaveLength(1);
  });

  it('should read up to four spans of contents whole, and end in the fallback with the bill so far when a call fails', async () => {
    const many = Array.from({ length: 20 }, (_, i) => (i % 2 ? modelText : userText)(`item-${i} ${'x'.repeat(600)}`));
    const small = { ...plan, summarizerPromptTokens: 5_000 };
    const asked: string[] = [];
    const clocks = new Set<unknown>();
    let failAt = Number.POSITIVE_INFINITY;
    const summarize: SummarizeFn = (request, _maxChars, clock) => {
      asked.push(request.prompt);
      clocks.add(clock);
      if (asked.length >= failAt) return Promise.resolve({ ok: false, kind: 'timeout', reason: 'timed out' });
      return Promise.resolve({ ok: true, text: `Part ${asked.length}.`, truncated: false, promptTokens: 100 });
    };
    const split = { coverage: { covered: 20 }, toCover: [...many.keys()] };
    const one = { ...input, contents: many, view: many, plan: small, summarize, split };
    const made = await summarizeCovered(one);
    expect(made.droppedContents).toBe(0);
    expect(asked.length).toBeGreaterThan(1);
    expect(asked.length).toBeLessThanOrEqual(4);
    for (let i = 0; i < 20; i++) expect(asked.some((prompt) => prompt.includes(`item-${i} `))).toBe(true);
    // One summary's calls share one clock: they share the summarizer's timeout.
    expect(clocks.size).toBe(1);
    expect([...clocks][0]).toBeDefined();
    // The second call fails: no third call, the mechanical summary of all, the first call's tokens still billed.
    asked.length = 0;
    failAt = 2;
    const failed = await summarizeCovered(one);
    expect(asked).toHaveLength(2);
    expect(failed.outcome).toMatchObject({ ok: false, kind: 'timeout', calls: 2, promptTokens: 100 });
    expect(failed.record.fallback).toBe(true);
  });

  it('should read the newest spans whole in four calls when more would be needed, the oldest left out and counted', async () => {
    const many = Array.from({ length: 200 }, (_, i) => (i % 2 ? modelText : userText)(`item-${i} ${'x'.repeat(600)}`));
    const asked: string[] = [];
    const summarize: SummarizeFn = (request) => {
      asked.push(request.prompt);
      return Promise.resolve({ ok: true, text: `Part ${asked.length}.`, truncated: false });
    };
    const split = { coverage: { covered: 200 }, toCover: [...many.keys()] };
    const plan4k = { ...plan, summarizerPromptTokens: 5_000 };
    const made = await summarizeCovered({ ...input, contents: many, view: many, plan: plan4k, summarize, split });
    expect(asked).toHaveLength(4);
    expect(made.droppedContents).toBeGreaterThan(100);
    expect(asked[0]).toMatch(/older messages omitted/);
    // The newest contents, each read by some call; the latest by the last.
    for (let i = 200 - 10; i < 200; i++) expect(asked.some((prompt) => prompt.includes(`item-${i} `))).toBe(true);
    expect(asked[3]).toContain('item-199 ');
  });
});
