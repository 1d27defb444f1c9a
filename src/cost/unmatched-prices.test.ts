import { describe, expect, it } from 'vitest';
import { unmatchedPrices } from './unmatched-prices.js';

describe('unmatchedPrices', () => {
  it('should name a price key that prices none of the models, with the model it likely meant', () => {
    const [found, ...rest] = unmatchedPrices(['gemini-2.5-flsh'], ['gemini-2.5-flash', 'gemini-2.5-pro']);
    expect(rest).toEqual([]);
    expect(found?.key).toBe('gemini-2.5-flsh');
    expect(found?.message).toContain("its agents' and summarizers' models: 'gemini-2.5-flash', 'gemini-2.5-pro'");
    expect(found?.message).toContain("Did you mean 'gemini-2.5-flash'?");
  });

  it('should accept a key that prices a model by its name or a prefix of it, after normalisation', () => {
    const models = ['models/gemini-2.5-flash-001', 'my-model-v2'];
    expect(unmatchedPrices(['gemini-2.5-flash', 'my-model', 'my-model-v2'], models)).toEqual([]);
    expect(unmatchedPrices(['gemini-2.5-pro'], models).map((entry) => entry.key)).toEqual(['gemini-2.5-pro']);
  });

  it('should say nothing when no model is known (every agent takes its model at run time)', () => {
    expect(unmatchedPrices(['anything'], [])).toEqual([]);
  });
});
