import { describe, expect, it } from 'vitest';
import type { Content } from '@google/genai';
import { functionCall, functionResponse } from '../../test/support/builders.js';
import { characterTokenizer } from '../../test/support/tokenizers.js';
import { estimateContentTokens } from '../estimate/estimate-content.js';
import { isUserRequest } from '../content/content-shape.js';
import { shrinkAroundRequest } from './around-request.js';

const tokensOf = (contents: readonly Content[]): number =>
  contents.reduce((sum, content) => sum + estimateContentTokens(content, characterTokenizer), 0);
const protect = (content: Content): boolean => isUserRequest(content);
const screenshot: Content['parts'] = [{ inlineData: { mimeType: 'image/png', data: 'A'.repeat(4_000) } }];

/** Shrinks `contents` to `budget`, and at most `hardBudget` when the user's request is cut too. */
const shrink = (contents: Content[], budget: number, hardBudget: number) =>
  shrinkAroundRequest({ contents, budget, hardBudget, tokenizer: characterTokenizer, protect });

describe('shrinkAroundRequest', () => {
  const request: Content = {
    role: 'user',
    parts: [{ text: `Task: ${'t'.repeat(3_000)} Submit with submit_patch.` }, ...(screenshot ?? [])],
  };
  const turn = [request, functionCall('fetch', { size: 1 }), functionResponse('fetch', { logs: 'l'.repeat(6_000) })];

  it('should cut the other parts and keep the message whole when the request then fits under the hard limit', () => {
    const result = shrink(turn, 2_000, 6_000);
    expect(result.contents[0]).toBe(request);
    expect(JSON.stringify(result.contents[2]).length).toBeLessThan(JSON.stringify(turn[2]).length);
    expect(result.tokens).toBe(tokensOf(result.contents));
    expect(result.tokens).toBeLessThanOrEqual(6_000);
  });

  it('should cut the message head+tail with a marker, never drop it, when it alone cannot fit', () => {
    const result = shrink(turn, 1_000, 1_200);
    expect(result.contents).toHaveLength(3);
    const text = result.contents[0]?.parts?.[0]?.text ?? '';
    expect(text.startsWith('Task: ')).toBe(true);
    expect(text.endsWith('Submit with submit_patch.')).toBe(true);
    expect(text).toMatch(/\[\.\.\. omitted \d+ of \d+ (bytes|lines) \.\.\.\]/);
    expect(text.length).toBeLessThan(3_000);
    expect(result.tokens).toBe(tokensOf(result.contents));
  });

  it('should shrink as before when there is no user message', () => {
    const tools = turn.slice(1);
    const result = shrink(tools, 500, 600);
    expect(result.contents[0]).toBe(tools[0]);
    expect(result.tokens).toBeLessThan(tokensOf(tools));
  });
});
