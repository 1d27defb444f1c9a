import { describe, expect, it } from 'vitest';
import { functionCall, functionResponse, modelText, userText } from '../../test/support/builders.js';
import { planMasking, tailTokens } from './plan-masking.js';

const turn = (n: number) => [
  userText(`Turn ${n}`),
  functionCall('fetch', { n }),
  functionResponse('fetch', { data: 'x'.repeat(2_000) }),
  modelText(`Answer ${n}`),
];
const contents = [...turn(1), ...turn(2), ...turn(3), userText('Turn 4')];
// Tool results cost 500, everything else 10; a masked result costs 40.
const tokens = contents.map((content) => (content.parts?.[0]?.functionResponse ? 500 : 10));
const maskedTokensAt = (i: number): number => (contents[i]?.parts?.[0]?.functionResponse ? 40 : (tokens[i] ?? 0));

describe('tailTokens', () => {
  it('should count masked contents at their masked size and the rest in full', () => {
    expect(tailTokens(tokens, 0, 0, maskedTokensAt)).toBe(3 * 500 + 10 * 10);
    expect(tailTokens(tokens, 0, 8, maskedTokensAt)).toBe(2 * 40 + 500 + 10 * 10);
    expect(tailTokens(tokens, 4, 8, maskedTokensAt)).toBe(40 + 500 + 7 * 10);
    // A mask that starts at the second turn leaves the first result whole.
    expect(tailTokens(tokens, 0, 8, maskedTokensAt, 4)).toBe(500 + 40 + 500 + 10 * 10);
  });
});

describe('planMasking', () => {
  const base = { contents, tokens, covered: 0, maskedUpTo: 0, maskedTokensAt, keepRecent: 2 };

  it('should mask the results of completed turns and say whether that is enough', () => {
    const plan = planMasking({ ...base, meetsTarget: (t) => t <= 1_200 });
    expect(plan).toEqual({ upTo: 12, tokens: 3 * 40 + 100, enough: true });
    expect(planMasking({ ...base, meetsTarget: (t) => t <= 100 })?.enough).toBe(false);
  });

  it('should mask only from its start, and count a start moved earlier', () => {
    expect(planMasking({ ...base, start: 4, meetsTarget: () => true })).toEqual({
      upTo: 12,
      tokens: 500 + 2 * 40 + 100,
      enough: true,
    });
    const live = { ...base, maskedUpTo: 8, maskedFrom: 4, maskedTail: 500 + 40 + 500 + 100 };
    expect(planMasking({ ...live, start: 4, meetsTarget: () => true })?.tokens).toBe(500 + 2 * 40 + 100);
    expect(planMasking({ ...live, start: 0, meetsTarget: () => true })?.tokens).toBe(3 * 40 + 100);
  });

  it('should not move the watermark back or to where the summary already covers', () => {
    expect(planMasking({ ...base, maskedUpTo: 12, meetsTarget: () => true })).toBeUndefined();
    expect(planMasking({ ...base, covered: 13, meetsTarget: () => true })).toBeUndefined();
  });

  it('should not move the watermark when the new range has nothing to mask', () => {
    const textOnly = [userText('a'), modelText('b'), userText('c'), modelText('d'), userText('e')];
    const plan = planMasking({
      contents: textOnly,
      tokens: textOnly.map(() => 10),
      covered: 0,
      maskedUpTo: 0,
      maskedTokensAt: () => 10,
      keepRecent: 1,
      meetsTarget: () => true,
    });
    expect(plan).toBeUndefined();
  });
});
