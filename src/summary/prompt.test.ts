import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Content } from '@google/genai';
import { conversation, HEAVY_PROPERTY_RUNS, mixedText, PROPERTY_RUNS } from '../../test/support/arbitraries.js';
import { functionCall, functionResponse, modelText, modelThought, userText } from '../../test/support/builders.js';
import { charsPerTokenTokenizer, tiktokenTokenizer, type Tokenizer } from '../estimate/tokenizer.js';
import { mixedScriptTokenizer, recordingTokenizer } from '../../test/support/tokenizers.js';
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { renderContent } from './render-content.js';
import { buildSummaryPrompt, SUMMARY_SYSTEM_INSTRUCTION } from './prompt.js';

/** Ten user messages 'message 0 …' to 'message 9 …' of about 400 characters each. */
const TEN_MESSAGES: Content[] = Array.from({ length: 10 }, (_, i) => userText(`message ${i} ${'x'.repeat(390)}`));

/** The prompt for `contents` within `maxPromptTokens`, for a summary of at most 100 tokens. */
function fitPrompt(contents: Content[], maxPromptTokens: number, tokenizer: Tokenizer = charsPerTokenTokenizer) {
  return buildSummaryPrompt({ contents, maxPromptTokens, maxSummaryTokens: 100, tokenizer });
}

function keptMessageNumbers(prompt: string): number[] {
  return [...prompt.matchAll(/message (\d+) x/g)].map((match) => Number(match[1]));
}

describe('SUMMARY_SYSTEM_INSTRUCTION', () => {
  describe('wording', () => {
    it('should tell the summarizer not to answer the user', () => {
      expect(SUMMARY_SYSTEM_INSTRUCTION).toMatch(/never answer the user/);
    });
  });
});

const reference = new Tiktoken(o200kBase);

describe('buildSummaryPrompt', () => {
  describe('nothing to summarize', () => {
    it('should still produce the instructions and an empty conversation', () => {
      const { prompt, droppedContents } = buildSummaryPrompt({
        contents: [],
        maxPromptTokens: 10_000,
        maxSummaryTokens: 1_000,
        tokenizer: charsPerTokenTokenizer,
      });
      expect(droppedContents).toBe(0);
      expect(prompt).toMatch(/<conversation>\n\n<\/conversation>$/);
    });
  });

  describe('structure', () => {
    const { prompt } = buildSummaryPrompt({
      previousSummary: 'Earlier: the user deployed v1.2.3 to staging.',
      currentRequest: 'Roll back staging to v1.2.2 and report the error rate.',
      contents: [
        userText('Deploy it.'),
        modelThought('I should check first.'),
        ...[
          functionCall('fetch_logs', { size: 3_000, env: 'staging' }),
          functionResponse('fetch_logs', { errors: 42 }),
        ],
        modelText('There are 42 errors.'),
      ],
      maxPromptTokens: 10_000,
      maxSummaryTokens: 1_000,
      tokenizer: charsPerTokenTokenizer,
    });

    it('should ask for every section a continuing agent needs', () => {
      for (const section of [
        '## Current state',
        "## User's current request",
        '## Key facts',
        '## Decisions and constraints',
        '## Tool results',
        '## Next steps',
      ]) {
        expect(prompt).toContain(section);
      }
    });

    it('should state the length bound in words (70% of the token cap)', () => {
      // floor(1,000 × 0.7) = 700
      expect(prompt).toContain('Keep it under 700 words.');
    });

    it('should carry the previous summary forward and quote the current request', () => {
      expect(prompt).toContain(
        '<previous_summary>\nEarlier: the user deployed v1.2.3 to staging.\n</previous_summary>',
      );
      expect(prompt).toContain(
        '<current_request>\nRoll back staging to v1.2.2 and report the error rate.\n</current_request>',
      );
    });

    it('should keep tool calls with their arguments and what they returned', () => {
      expect(prompt).toContain('[model] called tool `fetch_logs` with {"size":3000,"env":"staging"}');
      expect(prompt).toContain('[tool `fetch_logs` returned]: {"errors":42}');
    });

    it('should leave thoughts out', () => {
      expect(prompt).not.toContain('I should check first.');
    });
  });

  describe('bounds', () => {
    it('should drop the oldest messages first and say how many', () => {
      const { prompt, droppedContents } = fitPrompt(TEN_MESSAGES, 700);
      const kept = keptMessageNumbers(prompt);
      expect(droppedContents).toBeGreaterThan(0);
      expect(kept).toEqual(Array.from({ length: 10 - droppedContents }, (_, i) => droppedContents + i));
      expect(prompt).toContain(`[${droppedContents} older messages omitted to fit the summarizer's window]`);
    });

    it('should keep the leading messages it is told to keep before the newest, omitting those between', () => {
      // A late answer and its call lead what is newly covered: no summary has read them yet.
      const { prompt, droppedContents } = buildSummaryPrompt({
        contents: TEN_MESSAGES,
        maxPromptTokens: 700,
        maxSummaryTokens: 100,
        tokenizer: charsPerTokenTokenizer,
        keepFirst: 2,
      });
      const kept = keptMessageNumbers(prompt);
      expect(kept.slice(0, 2)).toEqual([0, 1]);
      expect(kept.slice(2)).toEqual(Array.from({ length: kept.length - 2 }, (_, i) => 10 - (kept.length - 2) + i));
      expect(kept.length).toBeGreaterThan(2);
      expect(kept.length + droppedContents).toBe(10);
      expect(prompt).toMatch(/message 1 x+\n\[\d+ older messages omitted/);
      expect(charsPerTokenTokenizer.count(prompt)).toBeLessThanOrEqual(700);
      // Nothing omitted: the conversation as it is; leading messages over half the room: not kept apart.
      expect(fitPrompt(TEN_MESSAGES, 10_000).prompt).toBe(
        buildSummaryPrompt({
          ...{ contents: TEN_MESSAGES, maxPromptTokens: 10_000, maxSummaryTokens: 100 },
          tokenizer: charsPerTokenTokenizer,
          keepFirst: 2,
        }).prompt,
      );
      const wide = buildSummaryPrompt({
        contents: TEN_MESSAGES,
        maxPromptTokens: 700,
        maxSummaryTokens: 100,
        tokenizer: charsPerTokenTokenizer,
        keepFirst: 6,
      });
      expect(wide).toEqual(fitPrompt(TEN_MESSAGES, 700));
    });

    it('should keep the head and tail of a newest message too large on its own', () => {
      // Rendering keeps 6,000 characters of a text (about 1,500 tokens at 4 characters per token), more than the
      // room a 1,000-token prompt leaves after its instructions.
      const huge = userText(`BEGIN ${'z'.repeat(100_000)} FINISH`);
      const { prompt, droppedContents } = fitPrompt([userText('the first message'), huge], 1_000);
      expect(droppedContents).toBe(1);
      expect(prompt).toContain('[user]: BEGIN zzz');
      expect(prompt).toContain('zzz FINISH');
      expect(prompt).not.toContain('the first message');
      expect(charsPerTokenTokenizer.count(prompt)).toBeLessThanOrEqual(1_000);
    });

    it('should keep a newest CJK message within the bound, with the real tokenizer', () => {
      // About 1.2 o200k tokens per character here, where the first cut assumes 0.5.
      const cjk = userText('漢字仮名交じり文'.repeat(2_500));
      const { prompt } = fitPrompt([cjk], 2_000, tiktokenTokenizer);
      // A prompt over 2,048 characters is counted from samples with a 5% margin: allow that margin, not more.
      expect(tiktokenTokenizer.count(prompt)).toBeLessThanOrEqual(2_100);
    });
  });

  describe('cost', () => {
    const history = Array.from({ length: 300 }, (_, i) =>
      i % 3 === 0
        ? userText(`Request ${i}: check shard ${i}.`)
        : i % 3 === 1
          ? functionCall('inspect', { shard: i })
          : functionResponse('inspect', { shard: i, healthy: i % 2 === 0, log: '启动完成 ok '.repeat(40) }),
    );

    it('should count the conversation as one text, not block by block', () => {
      const tokenizer = recordingTokenizer(mixedScriptTokenizer);
      const { droppedContents } = fitPrompt(history, 1_000_000, tokenizer);
      expect(droppedContents).toBe(0);
      expect(tokenizer.counted).toHaveLength(2);
      expect(tokenizer.counted).not.toContain(renderContent(history[5] as Content));
    });

    it('should keep within the budget by an exact count, and drop no more than it must, with the real tokenizer', () => {
      const { prompt, droppedContents } = fitPrompt(history, 20_000, tiktokenTokenizer);
      expect(droppedContents).toBeGreaterThan(0);
      expect(reference.encode(prompt, [], []).length).toBeLessThanOrEqual(20_000);
      // The newest content is always there, and one more older one would not have fit.
      expect(prompt).toContain(renderContent(history[299] as Content));
      const oneMore = fitPrompt(history.slice(droppedContents - 1), 20_000, tiktokenTokenizer);
      expect(oneMore.droppedContents).toBeGreaterThan(0);
    });

    it('should count a long conversation in groups, and block by block only where the budget runs out', () => {
      const long = Array.from({ length: 3_000 }, (_, i) => history[i % history.length] as Content);
      const tokenizer = recordingTokenizer(tiktokenTokenizer);
      const { prompt, droppedContents } = fitPrompt(long, 60_000, tokenizer);
      expect(droppedContents).toBeGreaterThan(0);
      expect(reference.encode(prompt, [], []).length).toBeLessThanOrEqual(60_000);
      // Blocks counted one by one come from a single group of at most 64K characters.
      const single = tokenizer.counted.filter((text) => long.some((content) => renderContent(content) === text));
      expect(single.reduce((sum, text) => sum + text.length, 0)).toBeLessThanOrEqual(65_536 + 2_000);
      expect(single.length).toBeLessThan(long.length - droppedContents);
    });
  });

  describe('laws', () => {
    const promptScenario = fc.record({
      contents: conversation,
      currentRequest: fc.option(mixedText({ maxLength: 100 }), { nil: undefined }),
      maxPromptTokens: fc.integer({ min: 400, max: 3_000 }),
      // The newest message: a short mixed-script phrase repeated up to 600 times (up to 12,000 graphemes).
      newest: fc
        .tuple(mixedText({ minLength: 1, maxLength: 20 }), fc.integer({ min: 1, max: 600 }))
        .map(([phrase, times]) => phrase.repeat(times)),
    });

    it('should never exceed maxPromptTokens (CJK and emoji cost one token per unit)', () => {
      fc.assert(
        fc.property(promptScenario, ({ contents, currentRequest, maxPromptTokens, newest }) => {
          const { prompt } = buildSummaryPrompt({
            contents: [...contents, userText(newest)],
            currentRequest,
            maxPromptTokens,
            maxSummaryTokens: 500,
            tokenizer: mixedScriptTokenizer,
          });
          expect(mixedScriptTokenizer.count(prompt)).toBeLessThanOrEqual(maxPromptTokens);
        }),
        HEAVY_PROPERTY_RUNS,
      );
    });

    it('should drop only the oldest messages', () => {
      fc.assert(
        fc.property(fc.integer({ min: 300, max: 2_000 }), (maxPromptTokens) => {
          const { prompt, droppedContents } = buildSummaryPrompt({
            contents: TEN_MESSAGES,
            maxPromptTokens,
            maxSummaryTokens: 100,
            tokenizer: charsPerTokenTokenizer,
          });
          const kept = keptMessageNumbers(prompt);
          // Kept messages are the newest ones, in order, and every message is either kept or counted as dropped.
          expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => 10 - kept.length + i));
          expect(kept.length + droppedContents).toBe(10);
        }),
        PROPERTY_RUNS,
      );
    });
  });
});
