import { describe, expect, it } from 'vitest';
import { callCostParts, callCostUsd } from './call-cost.js';

const PRICE = { input: 1, cachedInput: 0.1, output: 10 };

describe('callCostUsd', () => {
  it('should bill uncached prompt, cached prompt and output at their own rates', () => {
    // 1M prompt of which 400k cached: 600k x $1 + 400k x $0.1 + 100k x $10 per million.
    expect(
      callCostUsd(PRICE, { promptTokens: 1_000_000, cachedPromptTokens: 400_000, outputTokens: 100_000 }),
    ).toBeCloseTo(0.6 + 0.04 + 1, 10);
  });

  it('should split the cost into uncached prompt, cached prompt and output, summing to the whole', () => {
    const tokens = { promptTokens: 1_000_000, cachedPromptTokens: 400_000, outputTokens: 100_000 };
    const parts = callCostParts(PRICE, tokens);
    expect(parts.uncachedUsd).toBeCloseTo(0.6, 10);
    expect(parts.cachedUsd).toBeCloseTo(0.04, 10);
    expect(parts.outputUsd).toBeCloseTo(1, 10);
    expect(parts.uncachedUsd + parts.cachedUsd + parts.outputUsd).toBeCloseTo(callCostUsd(PRICE, tokens), 12);
  });
  it('should bill cached tokens at the input rate when the cached price is unknown', () => {
    expect(callCostUsd({ input: 2, output: 0 }, { promptTokens: 500_000, cachedPromptTokens: 500_000 })).toBeCloseTo(
      1,
      10,
    );
  });

  it('should clamp a cached count above the prompt count to the prompt', () => {
    expect(callCostUsd(PRICE, { promptTokens: 1_000_000, cachedPromptTokens: 5_000_000 })).toBeCloseTo(0.1, 10);
  });

  it('should use the long-context tier above its threshold only', () => {
    const price = { ...PRICE, longContext: { threshold: 200_000, input: 2, cachedInput: 0.2, output: 20 } };
    expect(callCostUsd(price, { promptTokens: 200_000 })).toBeCloseTo(0.2, 10);
    expect(callCostUsd(price, { promptTokens: 200_001 })).toBeCloseTo((200_001 * 2) / 1_000_000, 10);
  });
});
