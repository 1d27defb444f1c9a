import { describe, expect, it } from 'vitest';
import { characterTokenizer } from '../../test/support/tokenizers.js';
import { checkedTokenizer } from './checked-tokenizer.js';
import type { Tokenizer } from './tokenizer.js';

const fallback: Tokenizer = { name: 'fallback', count: (text) => text.length * 10 };

describe('checkedTokenizer', () => {
  it('should pass a finite count >= 0 through unchanged, without a report', () => {
    const reports: unknown[] = [];
    const tokenizer = checkedTokenizer(characterTokenizer, (value) => reports.push(value), fallback);
    expect(tokenizer.count('abcd')).toBe(characterTokenizer.count('abcd'));
    expect(tokenizer.count('')).toBe(characterTokenizer.count(''));
    expect(reports).toEqual([]);
  });

  it.each<[string, () => number]>([
    ['NaN', () => Number.NaN],
    ['Infinity', () => Number.POSITIVE_INFINITY],
    ['a negative count', () => -3],
    ['a string', () => '12' as unknown as number],
    [
      'a thrown error',
      () => {
        throw new Error('boom');
      },
    ],
  ])('should replace %s by the fallback count and report it once', (_label, count) => {
    const reports: unknown[] = [];
    const tokenizer = checkedTokenizer({ name: 'bad', count }, (value) => reports.push(value), fallback);
    expect(tokenizer.count('abc')).toBe(30);
    expect(tokenizer.count('abcdef')).toBe(60);
    expect(reports).toHaveLength(1);
  });

  it('should keep the name of the tokenizer it checks', () => {
    expect(checkedTokenizer({ name: 'mine', count: () => 1 }, () => undefined, fallback).name).toBe('mine');
  });
});
