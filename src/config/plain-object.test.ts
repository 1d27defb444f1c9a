import { describe, expect, it } from 'vitest';
import { isPlainObject } from './plain-object.js';

describe('isPlainObject', () => {
  it('should accept objects, empty or not', () => {
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject({ a: 1 })).toBe(true);
  });

  it('should reject null, arrays, functions and primitives', () => {
    for (const value of [null, undefined, [], [1], () => ({}), 'text', '{}', 0, true])
      expect(isPlainObject(value)).toBe(false);
  });
});
