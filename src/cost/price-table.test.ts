import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICES, priceFor } from './price-table.js';

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

  it('should return undefined for a model nobody prices', () => {
    expect(priceFor('scripted-model')).toBeUndefined();
    expect(priceFor(undefined)).toBeUndefined();
  });
});
