import { describe, expect, it } from 'vitest';
import { MIN_CACHED_PREFIX_TOKENS } from '../cost/cache-terms.js';
import { chooseMaskStart, rewrittenTokens, type MaskStartInput } from './mask-start.js';

// Two completed turns, each with a 1,500-token tool result (20 tokens masked), the first followed by
// a long answer; then the in-flight user message. With the 500-token head, the oldest result starts
// at 610 tokens, under the cacheable minimum: masking it rewrites the whole request. The second one
// starts at 5,220 tokens.
const TOKENS = [100, 10, 1_500, 3_000, 100, 10, 1_500, 100, 100];
const RESULTS = new Set([2, 6]);

function choice(overrides: Partial<MaskStartInput> & { target: number }): number {
  return chooseMaskStart({
    tokens: TOKENS,
    maskedTokensAt: (index) => (RESULTS.has(index) ? 20 : (TOKENS[index] ?? 0)),
    covered: 0,
    masked: undefined,
    upTo: 8,
    headTokens: 500,
    meetsTarget: (contentTokens) => contentTokens <= overrides.target,
    factor: 1,
    terms: { threshold: 7_000, growthPerCall: 100, cachedPriceRatio: 0.1, outputPriceRatio: 4 },
    ...overrides,
  });
}

describe('chooseMaskStart', () => {
  it('should start past a head too short to cache when masking the recent result alone meets the target', () => {
    // Masking both: 3,960 tokens, all rewritten (the head is under the minimum), ~665 a call over 30 calls.
    // Masking the second only: 5,440 tokens, 220 rewritten, ~635 a call over 15.6 calls.
    const start = choice({ target: 6_000 });
    expect(start).toBe(6);
    expect(500 + TOKENS.slice(0, start).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(MIN_CACHED_PREFIX_TOKENS);
  });

  it("should mask from the summary's watermark when only that meets the target, or when nothing does", () => {
    expect(choice({ target: 4_000 })).toBe(0);
    expect(choice({ target: 3_000 })).toBe(0);
    expect(choice({ target: 4_000, covered: 1 })).toBe(1);
  });

  it('should keep a live mask where it starts while that meets the target, and move it earlier only when needed', () => {
    expect(choice({ target: 6_000, masked: { from: 6, upTo: 7 } })).toBe(6);
    expect(choice({ target: 4_000, masked: { from: 6, upTo: 7 } })).toBe(0);
  });

  it('should never move a start later, though a later one would be cheaper', () => {
    // The live mask starts at the first result (0 and 2 mask the same): not at the cheaper 6.
    expect(choice({ target: 6_000, masked: { from: 2, upTo: 3 } })).toBeLessThanOrEqual(2);
  });

  it('should price a start by what it rewrites: from the first change, or all of it under the cacheable minimum', () => {
    expect(rewrittenTokens(5_000, MIN_CACHED_PREFIX_TOKENS - 1)).toBe(5_000);
    expect(rewrittenTokens(5_000, 3_000)).toBe(2_000);
  });
});
