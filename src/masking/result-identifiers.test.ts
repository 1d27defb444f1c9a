import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROPERTY_RUNS } from '../../test/support/arbitraries.js';
import { MAX_IDENTIFIERS, MAX_VALUE_CHARS, resultIdentifiers } from './result-identifiers.js';

describe('resultIdentifiers', () => {
  it('should keep the values of identifier keys first, then id-like tokens of text, then other numbers', () => {
    const order = {
      status: 'created',
      total: 42.5,
      order_id: 'ORD-7731',
      note: 'Shipped with tracking code TRK-99812-ZQ to the warehouse.',
      customer: { customerName: 'Ada Lovelace', email: 'ada@example.com' },
    };
    // At most MAX_IDENTIFIERS (4): the number is left out here.
    expect(resultIdentifiers(order)).toEqual([
      'customerName="Ada Lovelace"',
      'email="ada@example.com"',
      'order_id="ORD-7731"',
      '"TRK-99812-ZQ"',
    ]);
    expect(resultIdentifiers({ total: 42.5, note: 'Shipped with TRK-99812-ZQ.' })).toEqual([
      '"TRK-99812-ZQ"',
      'total=42.5',
    ]);
  });

  it('should never keep a fragment of a longer token as an id, nor phrases with a number in them', () => {
    // The pattern takes capitals and digits after the prefix: `VALUE-97-` of this token is not the id.
    expect(resultIdentifiers({ log: 'stored VALUE-97-7a437z in the cache' })).toEqual([]);
    expect(resultIdentifiers({ log: 'ids ORD-7731-- TRK-99812-ZQ and INV_2024_17.' })).toEqual([
      '"ORD-7731"',
      '"TRK-99812-ZQ"',
      '"INV_2024_17"',
    ]);
    const phrases = 'ERROR_connection_refused_after_3_retries MAX_RETRIES_v2 READ_timeout_30s A_file_2024_report.pdf';
    expect(resultIdentifiers({ log: `${phrases} HTTP-OK then ORD- then api-24` })).toEqual([]);
  });

  it('should recognise snake, kebab and camel identifier keys, not words that merely end like one', () => {
    expect(resultIdentifiers({ userId: 7, 'file-name': 'a.txt', paid: 3, said: 'ok', ID: 'x1' })).toEqual([
      'ID="x1"',
      'file-name="a.txt"',
      'userId=7',
      'paid=3',
    ]);
  });

  it('should find UUIDs in text and leave out long strings under identifier keys', () => {
    const uuid = '123e4567-e89b-12d3-a456-426614174000';
    expect(resultIdentifiers({ name: 'x'.repeat(MAX_VALUE_CHARS + 1), log: `created ${uuid}.` })).toEqual([
      `"${uuid}"`,
    ]);
  });

  it("should give the same identifiers whatever the order of an object's keys (a store may reorder them)", () => {
    const a = { id: 1, name: 'n', items: [{ sku: 'A-1' }, { sku: 'B-2' }] };
    const b = { items: [{ sku: 'A-1' }, { sku: 'B-2' }], name: 'n', id: 1 };
    expect(resultIdentifiers(b)).toEqual(resultIdentifiers(a));
  });

  it('should read a bounded part of a huge result: the first items, in order', () => {
    const rows = { rows: Array.from({ length: 100_000 }, (_, i) => ({ id: `R-${i}` })) };
    expect(resultIdentifiers(rows)).toEqual(Array.from({ length: MAX_IDENTIFIERS }, (_, i) => `id="R-${i}"`));
  });

  it('should be deterministic and bounded for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const first = resultIdentifiers(value);
        expect(resultIdentifiers(structuredClone(value))).toEqual(first);
        expect(first.length).toBeLessThanOrEqual(MAX_IDENTIFIERS);
        expect(new Set(first).size).toBe(first.length);
        // A key is named only when short; a value is a number or a JSON string of at most MAX_VALUE_CHARS
        // characters (an escape takes up to 6).
        for (const item of first)
          expect(item.length).toBeLessThanOrEqual(MAX_VALUE_CHARS + 1 + 6 * MAX_VALUE_CHARS + 2);
      }),
      PROPERTY_RUNS,
    );
  });
});
