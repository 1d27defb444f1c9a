import { describe, expect, it } from 'vitest';
import { holdsCopy, plainCopyOf, UNCOPIED } from './plain-copy.js';

const wide = { maxDepth: 8, nodes: 100 };

describe('plainCopyOf and holdsCopy', () => {
  it('should hold a value with the same keys in order and the same values, and nothing else', () => {
    const value = { a: 1, b: ['x', { c: true, d: null }], e: undefined };
    const copy = plainCopyOf(value, 0, { ...wide });
    expect(copy).not.toBe(UNCOPIED);
    if (copy === UNCOPIED) return;
    expect(holdsCopy(structuredClone(value), copy)).toBe(true);
    expect(holdsCopy({ b: value.b, a: 1, e: undefined }, copy)).toBe(false);
    expect(holdsCopy({ ...value, b: ['x', { c: true, d: 0 }] }, copy)).toBe(false);
    expect(holdsCopy({ ...value, b: ['x', { c: true, d: null }, 'y'] }, copy)).toBe(false);
    expect(holdsCopy({ a: 1, b: value.b }, copy)).toBe(false);
  });

  it('should not hold a class instance or a list of another kind in place of a record or a list', () => {
    class Shaped {
      a = 1;
    }
    class Listed extends Array<unknown> {}
    const record = plainCopyOf({ a: 1 }, 0, { ...wide });
    const list = plainCopyOf([1], 0, { ...wide });
    if (record === UNCOPIED || list === UNCOPIED) throw new Error('copied');
    expect(holdsCopy(new Shaped(), record)).toBe(false);
    expect(holdsCopy(Listed.from([1]), list)).toBe(false);
    expect(plainCopyOf(new Shaped(), 0, { ...wide })).toBe(UNCOPIED);
    expect(plainCopyOf(Listed.from([1]), 0, { ...wide })).toBe(UNCOPIED);
  });

  it('should copy nothing past its depth or its size, nor functions, symbols and bigints', () => {
    expect(plainCopyOf({ a: { b: { c: {} } } }, 0, { maxDepth: 3, nodes: 100 })).toBe(UNCOPIED);
    expect(plainCopyOf([[], [], []], 0, { maxDepth: 8, nodes: 3 })).toBe(UNCOPIED);
    expect(plainCopyOf([[], []], 0, { maxDepth: 8, nodes: 3 })).not.toBe(UNCOPIED);
    for (const odd of [() => 1, Symbol('s'), 1n]) expect(plainCopyOf({ odd }, 0, { ...wide })).toBe(UNCOPIED);
  });
});
