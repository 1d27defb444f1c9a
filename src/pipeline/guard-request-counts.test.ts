/**
 * guardRequest is handed every content's token count (the shell measures each content once per
 * call, and unchanged ones not at all): the decision must not count them again. Only contents it
 * makes (a summary, a cut part) are counted.
 */
import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { contentOf, modelText, usageRecord, userText } from '../../test/support/builders.js';
import { guardInput } from '../../test/support/guard-input.js';
import { recordingTokenizer, type RecordingTokenizer } from '../../test/support/tokenizers.js';
import type { SummaryOutcome } from '../summary/summarizer.js';
import { estimateContentsTokens } from '../estimate/estimate-request.js';
import type { SummaryRecord } from '../summary/stored-summary.js';
import type { UsageRecord } from '../usage/stored-usage.js';
import { guardRequest, type GuardRequestInput } from '../pipeline/guard-request.js';

const WINDOW = 10_000;

/** The input with `contents` measured beforehand; the tokenizer records only what the decision counts. */
function inputFor(
  contents: Content[],
  tokenizer: RecordingTokenizer,
  fields: { usage?: UsageRecord; summary?: SummaryRecord | undefined; fixedTokens?: number } = {},
): GuardRequestInput {
  const input = guardInput({
    contents,
    tokenizer,
    fixedTokens: fields.fixedTokens ?? 100,
    summary: fields.summary,
    usage: fields.usage ?? usageRecord(),
    window: WINDOW,
    summarizerWindow: WINDOW,
    summarize: async (): Promise<SummaryOutcome> => ({ ok: true, text: 'Work so far: done.', truncated: false }),
  });
  tokenizer.counted.length = 0;
  return input;
}

/** Texts of `content` the tokenizer was asked to count again, whole or inside a joined text. */
function recounted(tokenizer: RecordingTokenizer, content: Content): string[] {
  const texts = (content.parts ?? []).map((part) => part.text ?? '').filter((text) => text.length > 0);
  return texts.filter((text) => tokenizer.counted.some((counted) => counted.includes(text)));
}

describe('guardRequest counts only the contents it changes', () => {
  it('should cut a message of 3,000 parts without counting its parts again, with the estimate of what it sends', async () => {
    const tokenizer = recordingTokenizer();
    const rows = Array.from({ length: 3_000 }, (_, i) => ({ text: `row ${i}: ok\n` }));
    const message = contentOf('user', ...rows);
    const result = await guardRequest(inputFor([message], tokenizer));
    expect(result.shrunk).toBe(true);
    const sent = result.contents ?? [];
    // The middle rows were dropped: nothing the decision counted may hold them.
    expect(recounted(tokenizer, contentOf('user', ...rows.slice(1_000, 2_000)))).toEqual([]);
    // The same figure as a count of what was sent from scratch.
    expect(result.estimate).toBe(100 + estimateContentsTokens(sent, recordingTokenizer()));
  });

  it('should not count the history again while a futile compaction is held back', async () => {
    const tokenizer = recordingTokenizer();
    const history: Content[] = [];
    for (let turn = 1; turn <= 3; turn++)
      history.push(userText(`request ${turn} `.padEnd(300, 'x')), modelText(`answer ${turn} `.padEnd(300, 'y')));
    history.push(userText('current request A'));
    // Calibrated at 1.5 with a fixed part of 5,600 tokens: over the threshold whatever the contents.
    const usage = usageRecord({
      realPromptTokens: 6_000,
      lastEstimate: 4_000,
      sentEstimate: 4_000,
      learnedCorrection: 1.5,
    });
    const first = await guardRequest(inputFor(history, tokenizer, { usage, fixedTokens: 5_600 }));
    expect(first.state.usage.futileCompaction).toBeDefined();
    const grown = [...history, modelText('short answer'), userText('current request B')];
    const held = await guardRequest(
      inputFor(grown, tokenizer, { usage: first.state.usage, summary: first.newSummary, fixedTokens: 5_600 }),
    );
    expect(held.compaction).toBeUndefined();
    expect(held.state.usage.futileCompaction).toEqual(first.state.usage.futileCompaction);
    for (const content of grown.slice(first.newSummary?.covered ?? 0))
      expect(recounted(tokenizer, content)).toEqual([]);
  });
});
