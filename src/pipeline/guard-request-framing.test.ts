/**
 * The estimator's framing in the decision: the usage record keeps the framing
 * of exactly what was sent (pins, an injected summary, a compaction's
 * contents, the fixed part), and the calibration of a request applies the
 * content ratio of the last one to this request's own content (view, pins,
 * summary and fixed part). Framing here is counted independently of the
 * estimator: 4 per content and 3 per part (every content below has fewer than
 * 64 text parts), plus the fixed part's.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Content } from '@google/genai';
import { HEAVY_PROPERTY_RUNS, measuredConversation } from '../../test/support/arbitraries.js';
import {
  contentOf,
  functionCall,
  functionResponse,
  summaryRecord,
  usageRecord,
  userText,
} from '../../test/support/builders.js';
import { guardInput } from '../../test/support/guard-input.js';
import { estimateContentsTokens, estimateFixedTokens, contentsFramingTokens } from '../estimate/estimate-request.js';
import { fingerprint } from '../estimate/fingerprint.js';
import { tiktokenTokenizer } from '../estimate/tokenizer.js';
import { guardRequest } from '../pipeline/guard-request.js';

function framingOf(contents: readonly Content[]): number {
  return contents.reduce((sum, content) => sum + 4 + 3 * (content.parts?.length ?? 0), 0);
}

const PIN = contentOf('user', { text: 'p'.repeat(93) });

describe('guardRequest and the framing of what it sends', () => {
  it('should record the framing of the pins, the contents and the fixed part it sends as is', async () => {
    const contents = [userText('q'.repeat(1_000)), userText('a'.repeat(500))];
    const result = await guardRequest(guardInput({ contents, pinned: PIN, fixedFramingTokens: 8 }));
    expect(result.contents).toEqual([PIN, ...contents]);
    // 8 fixed + 3 contents of one part x (4 + 3).
    expect(result.state.usage.sentFraming).toBe(29);
  });

  it('should record the framing of whatever it sends, compacted or not', async () => {
    let compacted = 0;
    await fc.assert(
      fc.asyncProperty(measuredConversation, fc.integer({ min: 0, max: 40 }), async ({ contents }, fixed) => {
        const result = await guardRequest(
          guardInput({ contents, fixedFramingTokens: fixed, usage: usageRecord({ learnedCorrection: 4 }) }),
        );
        if (result.compaction || result.masking) compacted++;
        expect(result.state.usage.sentFraming).toBe(fixed + framingOf(result.contents ?? contents));
      }),
      HEAVY_PROPERTY_RUNS,
    );
    expect(compacted).toBeGreaterThan(0);
  });
});

describe('guardRequest and the content ratio of the last request', () => {
  // The last request: 1,000 estimated tokens, 200 of them framing, 1,300 real: 1.3 of the whole, 1.625 of its content.
  const usage = usageRecord({ realPromptTokens: 1_300, lastEstimate: 1_000, lastFraming: 200, sentEstimate: 1_000 });

  it('should apply it to the content of the view, pins included', async () => {
    const contents = [userText('x'.repeat(3_000))];
    const result = await guardRequest(guardInput({ contents, pinned: PIN, usage }));
    // 500 fixed + the pin (4 + 3 + 93) + the message (4 + 3 + 3,000) = 3,607, of which 14 framing.
    expect(result.estimate).toBe(3_607);
    // 1,300 / (1,000 - 200) x (3,607 - 14) = 5,838.6; the plain ratio would give 1.3 x 3,607 = 4,689.1.
    expect(result.calibrated).toBe(5_839);
  });

  it('should count the framing of the summary it injects', async () => {
    const covered = [userText('old question'), userText('old answer')];
    const contents = [...covered, userText('x'.repeat(3_000))];
    const summary = summaryRecord({
      covered: 2,
      anchor: `${fingerprint(covered[0] ?? {})}|${fingerprint(covered[1] ?? {})}`,
      text: 'SUMMARY OF THE FIRST TOPIC',
    });
    const result = await guardRequest(guardInput({ contents, summary, usage }));
    const sent = result.contents ?? [];
    expect(sent).toHaveLength(2);
    expect(result.calibrated).toBe(Math.ceil((1_300 / 800) * (result.estimate - framingOf(sent))));
    expect(result.state.usage.sentFraming).toBe(framingOf(sent));
  });
});

describe('guardRequest after a request that was mostly framing, with a provider that counts framing', () => {
  it('should not cut a fresh tool result that fits', async () => {
    const tools = [{ functionDeclarations: [{ name: 'ls', description: 'Lists a directory.' }] }];
    const fixed = estimateFixedTokens('You are a careful assistant.', tools, tiktokenTokenizer);
    const fixedTokens = fixed.systemTokens + fixed.toolTokens;
    // 25 calls with short arguments and results: about half of this request is framing.
    const chain: Content[] = [userText('tidy the tree')];
    for (let i = 0; i < 25; i++)
      chain.push(functionCall('ls', { p: `d${i}` }), functionResponse('ls', { output: 'ok' }));
    const lastEstimate = fixedTokens + estimateContentsTokens(chain, tiktokenTokenizer);
    const lastFraming = fixed.framingTokens + contentsFramingTokens(chain);
    expect(lastFraming / lastEstimate).toBeGreaterThan(0.4);
    // The provider counted it exactly as the estimator does (ratio 1); then a ~20k-token result arrives.
    const contents = [
      ...chain,
      functionCall('ls', { p: 'x' }),
      functionResponse('ls', { output: 'lorem ipsum dolor sit amet consectetur '.repeat(3_000) }),
    ];
    const usage = usageRecord({
      realPromptTokens: lastEstimate,
      lastEstimate,
      lastFraming,
      sentEstimate: lastEstimate,
    });
    const input = { contents, tokenizer: tiktokenTokenizer, fixedTokens, fixedFramingTokens: fixed.framingTokens };
    const result = await guardRequest(guardInput({ ...input, usage, window: 32_000, summarizerWindow: 32_000 }));
    // The request is 62% of the window; it goes whole, at most 1 / MIN_CONTENT_SHARE overestimated.
    expect(result.estimate / 32_000).toBeCloseTo(0.63, 1);
    expect(result.contents).toBeUndefined();
    expect(result.shrunk).toBe(false);
    expect(result.calibrated).toBeLessThan(result.budget.threshold);
  });
});
