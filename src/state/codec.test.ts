import { describe, expect, it } from 'vitest';
import { decodeCount } from './field-reader.js';
import { encodeRecord } from './codec.js';

describe('decodeCount', () => {
  describe('values that are not counts', () => {
    it('should reject missing values, booleans, objects and arrays', () => {
      for (const value of [undefined, null, true, {}, [5], () => 5]) expect(decodeCount(value)).toBeUndefined();
    });

    it('should reject NaN, infinities and negative numbers', () => {
      for (const value of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -1, -0.5])
        expect(decodeCount(value)).toBeUndefined();
    });

    it('should reject numbers above the maximum (unsafe integers by default)', () => {
      expect(decodeCount(1e20)).toBeUndefined();
      expect(decodeCount(2_000, 1_000)).toBeUndefined();
    });

    it('should reject strings that are blank or not numbers', () => {
      for (const value of ['', '   ', 'abc', '12 tokens', 'NaN', 'Infinity', '-3'])
        expect(decodeCount(value)).toBeUndefined();
    });
  });

  describe('counts', () => {
    it('should accept numbers, floats included', () => {
      expect(decodeCount(12)).toBe(12);
      expect(decodeCount(0)).toBe(0);
      expect(decodeCount(1.5)).toBe(1.5);
    });

    it('should accept numeric strings, as some session services return them', () => {
      expect(decodeCount('12')).toBe(12);
      expect(decodeCount(' 12 ')).toBe(12);
      expect(decodeCount('1.25')).toBe(1.25);
    });
  });
});

describe('encodeRecord', () => {
  describe('undefined fields', () => {
    it('should drop them, so the record is plain JSON', () => {
      expect(encodeRecord({ a: 1, b: undefined, c: 'x' })).toEqual({ a: 1, c: 'x' });
      expect(Object.keys(encodeRecord({ a: 1, b: undefined }))).toEqual(['a']);
    });
  });
});
