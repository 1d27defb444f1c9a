import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CACHE_TERMS,
  CACHE_TERMS_CHECKED,
  cachedPriceRatio,
  cacheTermsFor,
  DEFAULT_CACHED_PRICE_RATIO,
  DEFAULT_OUTPUT_PRICE_RATIO,
  MIN_CACHED_PREFIX_TOKENS,
  outputPriceRatio,
  priceRatiosOf,
} from './cache-terms.js';
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

describe('outputPriceRatio', () => {
  it("should be the model's output price over its uncached input price", () => {
    expect(outputPriceRatio({ input: 1.25, output: 10 })).toBe(8);
    expect(outputPriceRatio(priceFor('gemini-2.5-flash-lite'))).toBeCloseTo(4, 9);
  });
  it("should assume Gemini 2.5 Flash's ratio for a model with no usable price", () => {
    const flash = priceFor('gemini-2.5-flash');
    expect(DEFAULT_OUTPUT_PRICE_RATIO).toBeCloseTo((flash?.output ?? 0) / (flash?.input ?? 1), 9);
    expect(outputPriceRatio(undefined)).toBe(DEFAULT_OUTPUT_PRICE_RATIO);
    expect(outputPriceRatio({ input: 0, output: 2 })).toBe(DEFAULT_OUTPUT_PRICE_RATIO);
  });
});

describe('cacheTermsFor', () => {
  it("should read the model family's row, the longest family the name starts with", () => {
    expect(cacheTermsFor('gemini-2.5-flash')).toEqual({ minCachedPrefixTokens: 2_048, cachedPriceRatio: 0.1 });
    expect(cacheTermsFor('models/gemini-3.1-pro-preview')).toEqual({
      minCachedPrefixTokens: 4_096,
      cachedPriceRatio: 0.1,
    });
    expect(cacheTermsFor('gpt-4o-mini-2024-07-18')).toEqual({ minCachedPrefixTokens: 1_024, cachedPriceRatio: 0.5 });
    expect(cacheTermsFor('claude-sonnet-4-5-20250929').minCachedPrefixTokens).toBe(1_024);
    expect(cacheTermsFor('claude-3-5-haiku-20241022').minCachedPrefixTokens).toBe(2_048);
    expect(cacheTermsFor('claude-haiku-4-5').minCachedPrefixTokens).toBe(4_096);
  });
  it("should give a model no row knows Gemini 2.5's terms, the guard's own figures", () => {
    expect(cacheTermsFor('my-model')).toEqual({
      minCachedPrefixTokens: MIN_CACHED_PREFIX_TOKENS,
      cachedPriceRatio: DEFAULT_CACHED_PRICE_RATIO,
    });
    expect(cacheTermsFor(undefined).minCachedPrefixTokens).toBe(MIN_CACHED_PREFIX_TOKENS);
  });
  it("should let the application's prices override the minimum and the discount per model", () => {
    const prices = {
      'gemini-2.5-flash': { input: 0.3, cachedInput: 0.075, output: 2.5, minCachedPrefixTokens: 1_024 },
    };
    expect(cacheTermsFor('gemini-2.5-flash-001', prices)).toEqual({
      minCachedPrefixTokens: 1_024,
      cachedPriceRatio: 0.25,
    });
    // A price without a cached rate leaves the family's discount.
    expect(cacheTermsFor('gpt-4o', { 'gpt-4o': { input: 2.5, output: 10 } }).cachedPriceRatio).toBe(0.5);
    expect(cacheTermsFor('gemini-2.5-pro', prices)).toEqual({ minCachedPrefixTokens: 2_048, cachedPriceRatio: 0.1 });
  });
  it("should give a RoutedLlm's name the least of its models' terms: which answered is not told", () => {
    const routed = 'RoutedLlm[fast (gemini-2.5-flash), deep (gemini-3-pro-preview), gpt (gpt-4o)]';
    expect(cacheTermsFor(routed)).toEqual({ minCachedPrefixTokens: 4_096, cachedPriceRatio: 0.5 });
    expect(cacheTermsFor('RoutedLlm[a (gemini-2.5-flash), b (gemini-2.5-pro)]')).toEqual({
      minCachedPrefixTokens: 2_048,
      cachedPriceRatio: 0.1,
    });
    const own = { [routed]: { input: 1, cachedInput: 0.25, output: 4, minCachedPrefixTokens: 512 } };
    expect(cacheTermsFor(routed, own)).toEqual({ minCachedPrefixTokens: 512, cachedPriceRatio: 0.25 });
  });

  it('should keep every row a real discount with a positive minimum', () => {
    for (const row of CACHE_TERMS) {
      expect(row.cachedPriceRatio).toBeGreaterThan(0);
      expect(row.cachedPriceRatio).toBeLessThan(1);
      expect(row.minCachedPrefixTokens).toBeGreaterThanOrEqual(1_024);
    }
  });
});

describe('the cache terms table in the docs', () => {
  it('should state the date the rows were checked, and every family, as the table has them', () => {
    const doc = readFileSync(new URL('../../docs/observability.md', import.meta.url), 'utf8');
    expect(doc).toContain(`Rows checked on ${CACHE_TERMS_CHECKED}`);
    for (const row of CACHE_TERMS) expect(doc).toContain(`\`${row.family}\``);
  });
});

describe('priceRatiosOf', () => {
  it("should take the cached ratio of the model's family when no cached price is given, the default else", () => {
    expect(priceRatiosOf(undefined, 'gpt-4o-mini').cachedPriceRatio).toBe(0.5);
    expect(priceRatiosOf({ input: 0.15, output: 0.6 }, 'openai/gpt-4o-mini').cachedPriceRatio).toBe(0.5);
    expect(priceRatiosOf({ input: 1, cachedInput: 0.25, output: 4 }, 'gpt-4o-mini').cachedPriceRatio).toBe(0.25);
    expect(priceRatiosOf(undefined, 'my-router/fast').cachedPriceRatio).toBe(DEFAULT_CACHED_PRICE_RATIO);
    expect(priceRatiosOf(undefined).cachedPriceRatio).toBe(DEFAULT_CACHED_PRICE_RATIO);
  });
});
