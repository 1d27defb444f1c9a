import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICES, priceFor, priceTableProblem } from './price-table.js';

describe('priceFor', () => {
  it('should find a default price by exact, prefixed and versioned names', () => {
    expect(priceFor('gemini-2.5-flash')).toBe(DEFAULT_PRICES['gemini-2.5-flash']);
    expect(priceFor('models/gemini-2.5-pro')).toBe(DEFAULT_PRICES['gemini-2.5-pro']);
    expect(priceFor('projects/p/locations/l/publishers/google/models/gemini-2.5-flash@001')).toBe(
      DEFAULT_PRICES['gemini-2.5-flash'],
    );
  });

  it('should prefer the longest matching key, so Flash-Lite is not billed as Flash', () => {
    expect(priceFor('gemini-2.5-flash-lite-preview-09-2025')).toBe(DEFAULT_PRICES['gemini-2.5-flash-lite']);
    expect(priceFor('gemini-2.5-flash-preview-09-2025')).toBe(DEFAULT_PRICES['gemini-2.5-flash']);
  });

  it('should let the application table win over the defaults and price unknown models', () => {
    const mine = { input: 9, output: 9 };
    expect(priceFor('gemini-2.5-flash', { 'gemini-2.5-flash': mine })).toBe(mine);
    expect(priceFor('my-model-v2', { 'my-model': mine })).toBe(mine);
    expect(priceFor('gemini-2.5-pro', { 'my-model': mine })).toBe(DEFAULT_PRICES['gemini-2.5-pro']);
  });

  it("should not let a shorter key of the application's shadow a default that fits the name better", () => {
    const flash = { input: 0.3, cachedInput: 0.3, output: 2.5 };
    const table = { 'gemini-2.5-flash': flash };
    expect(priceFor('gemini-2.5-flash-lite', table)).toBe(DEFAULT_PRICES['gemini-2.5-flash-lite']);
    expect(priceFor('gemini-2.5-flash-lite-preview-09-2025', table)).toBe(DEFAULT_PRICES['gemini-2.5-flash-lite']);
    // Where both tables fit equally, the application's wins.
    expect(priceFor('gemini-2.5-flash-001', table)).toBe(flash);
    expect(priceFor('models/gemini-2.5-flash', table)).toBe(flash);
  });

  it('should return undefined for a model nobody prices', () => {
    expect(priceFor('scripted-model')).toBeUndefined();
    expect(priceFor(undefined)).toBeUndefined();
  });
});

describe('priceTableProblem', () => {
  it('should accept the default table and a full long-context tier', () => {
    expect(priceTableProblem(DEFAULT_PRICES)).toBeUndefined();
    const tiered = { input: 1, cachedInput: 0.1, output: 4, longContext: { threshold: 200_000, input: 2, output: 8 } };
    expect(priceTableProblem({ 'my-model': tiered })).toBeUndefined();
  });

  it('should refuse a long-context tier that would bill NaN or nothing: not an object, no threshold, a misspelt rate', () => {
    const at = (longContext: unknown) => priceTableProblem({ m: { input: 1, output: 1, longContext } });
    expect(at(5)).toMatchObject({ field: '.m.longContext' });
    expect(at({})).toMatchObject({ field: '.m.longContext.threshold' });
    expect(at({ threshold: '200k', input: 2, output: 2 })).toMatchObject({ field: '.m.longContext.threshold' });
    expect(at({ threshold: 6_000, Input: 2, output: 2 })).toMatchObject({
      field: '.m.longContext.Input',
      reason: "is not a price field (did you mean 'input'?)",
    });
    expect(at({ threshold: 6_000, input: 2 })).toMatchObject({ field: '.m.longContext.output' });
  });

  it('should accept a minimum cached prefix per model and refuse one that is not a whole token count', () => {
    expect(priceTableProblem({ m: { input: 1, output: 1, minCachedPrefixTokens: 1_024 } })).toBeUndefined();
    for (const value of [-1, 1.5, '2048'])
      expect(priceTableProblem({ m: { input: 1, output: 1, minCachedPrefixTokens: value } })).toMatchObject({
        field: '.m.minCachedPrefixTokens',
      });
  });
  it('should refuse a cached price above the input price, and an empty model name', () => {
    expect(priceTableProblem({ m: { input: 0.3, cachedInput: 3, output: 2.5 } })).toMatchObject({
      field: '.m.cachedInput',
      reason: expect.stringContaining('swapped') as unknown,
    });
    expect(
      priceTableProblem({
        m: { input: 1, output: 1, longContext: { threshold: 10, input: 1, cachedInput: 2, output: 1 } },
      }),
    ).toMatchObject({
      field: '.m.longContext.cachedInput',
    });
    expect(priceTableProblem({ '': { input: 1, output: 1 } })).toMatchObject({
      reason: expect.stringContaining('every model') as unknown,
    });
  });
});
