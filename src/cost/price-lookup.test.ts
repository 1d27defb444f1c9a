import { describe, expect, it } from 'vitest';
import { priceFor, type PriceTable } from './price-table.js';
import { priceLookup } from './price-lookup.js';

const table: PriceTable = {
  'my-model': { input: 1, output: 2 },
  'gemini-2.5-flash': { input: 9, output: 9 },
};

const names = [
  'gemini-2.5-flash',
  'gemini-2.5-flash-001',
  'models/gemini-2.5-flash-lite',
  'my-model',
  'my-model-v2',
  'GPT-4o',
  'unknown-model',
  '',
  undefined,
];

describe('priceLookup', () => {
  it('should price every name as priceFor does, looked up again or not, with and without a table', () => {
    for (const prices of [undefined, table]) {
      const priceOf = priceLookup(prices);
      for (const round of [1, 2])
        for (const name of names)
          expect(priceOf(name), `${name ?? 'undefined'} (round ${round})`).toEqual(priceFor(name, prices));
    }
  });

  it("should keep each guard's table to itself", () => {
    const [own, defaults] = [priceLookup(table), priceLookup()];
    expect(own('gemini-2.5-flash')).toBe(table['gemini-2.5-flash']);
    expect(defaults('gemini-2.5-flash')).not.toBe(table['gemini-2.5-flash']);
    expect(defaults('my-model')).toBeUndefined();
  });
});
