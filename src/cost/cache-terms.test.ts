import { describe, expect, it } from 'vitest';
import { cachedPriceRatio, DEFAULT_CACHED_PRICE_RATIO } from './cache-terms.js';
import { priceFor } from './price-table.js';

describe('cachedPriceRatio', () => {
  it("should be the model's cached price over its uncached one", () => {
    expect(cachedPriceRatio(priceFor('gemini-2.5-pro'))).toBeCloseTo(0.1, 10);
    expect(cachedPriceRatio({ input: 2, cachedInput: 0.5, output: 8 })).toBe(0.25);
  });

  it('should assume the deepest common discount when the cached price or the model is unknown', () => {
    expect(cachedPriceRatio(undefined)).toBe(DEFAULT_CACHED_PRICE_RATIO);
    expect(cachedPriceRatio({ input: 1.5, output: 9 })).toBe(DEFAULT_CACHED_PRICE_RATIO);
  });

  it('should see no discount on a model priced at 0, where caching saves nothing', () => {
    expect(cachedPriceRatio({ input: 0, cachedInput: 0, output: 0 })).toBe(1);
  });

  it('should stay within [0, 1] for a table that prices cached tokens above uncached ones', () => {
    expect(cachedPriceRatio({ input: 1, cachedInput: 3, output: 1 })).toBe(1);
    expect(cachedPriceRatio({ input: 1, cachedInput: 0, output: 1 })).toBe(0);
  });
});
