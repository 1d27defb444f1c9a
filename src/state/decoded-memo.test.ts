import { describe, expect, it } from 'vitest';
import { DecodedMemo } from './decoded-memo.js';

/** A memo over a decoder that counts its calls and reads the whole record (as JSON). */
function counting(): { memo: DecodedMemo<string>; calls: () => number } {
  let calls = 0;
  const memo = new DecodedMemo<string>((value) => {
    calls++;
    return JSON.stringify(value) ?? 'undefined';
  });
  return { memo, calls: () => calls };
}

describe('DecodedMemo', () => {
  it('should decode the same unchanged record once', () => {
    const { memo, calls } = counting();
    const record = { version: 1, modelCalls: 3, futile: { window: 10, seen: [1, 2] }, model: 'm' };
    expect(memo.decode(record)).toBe(JSON.stringify(record));
    expect(memo.decode(record)).toBe(JSON.stringify(record));
    expect(calls()).toBe(1);
    // Another object with the same values is another record: decoded on its own.
    expect(memo.decode({ ...record })).toBe(JSON.stringify(record));
    expect(calls()).toBe(2);
  });

  it('should decode again a record edited in place, at any depth it keeps', () => {
    const edits: ((record: Record<string, unknown>) => void)[] = [
      (record) => void (record['modelCalls'] = 4),
      (record) => void (record['added'] = true),
      (record) => void delete record['model'],
      (record) => void ((record['futile'] as Record<string, unknown>)['window'] = 11),
      (record) => void (record['futile'] as { seen: number[] }).seen.push(3),
      (record) => void ((record['futile'] as { seen: number[] }).seen[0] = 5),
      (record) => void (record['futile'] = { window: 10, seen: [1, 2, 3] }),
    ];
    for (const edit of edits) {
      const { memo, calls } = counting();
      const record: Record<string, unknown> = {
        version: 1,
        modelCalls: 3,
        futile: { window: 10, seen: [1, 2] },
        model: 'm',
      };
      memo.decode(record);
      edit(record);
      expect(memo.decode(record)).toBe(JSON.stringify(record));
      expect(calls()).toBe(2);
      // And the new content is what is kept from then on.
      expect(memo.decode(record)).toBe(JSON.stringify(record));
      expect(calls()).toBe(2);
    }
  });

  it('should always decode what it cannot check: strings, lists, class instances, records nested too deep', () => {
    const { memo, calls } = counting();
    const deep = { a: { b: { c: { d: 1 } } } };
    const values: unknown[] = ['{"version":1}', [1, 2], new Date(0), deep, { at: new Date(0) }];
    for (const value of values) {
      memo.decode(value);
      memo.decode(value);
    }
    expect(calls()).toBe(values.length * 2);
  });
});
