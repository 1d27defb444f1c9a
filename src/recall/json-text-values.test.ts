import { describe, expect, it } from 'vitest';
import { jsonTextValues, looksLikeJson } from './json-text-values.js';

describe('jsonTextValues', () => {
  it('should give each string unescaped and each number as written', () => {
    const text =
      '{"id": 1234567890123456789, "price": 12.50, "note": "line one\\nline \\"two\\" \\u00e9\\\\x", "ok": true}';
    expect(jsonTextValues(text, 1_000).split('\n')).toEqual([
      'id',
      '1234567890123456789',
      'price',
      '12.50',
      'note',
      'line one',
      'line "two" é\\x',
      'ok',
      'true',
    ]);
  });

  it('should read JSON inside a string as values too, and stop near the limit', () => {
    const inner = JSON.stringify({ output: 'FAIL a' });
    expect(jsonTextValues(JSON.stringify({ text: inner }), 1_000).split('\n')).toEqual(['text', 'output', 'FAIL a']);
    expect(jsonTextValues(JSON.stringify({ long: 'x'.repeat(500) }), 100).length).toBeLessThanOrEqual(100);
  });

  it('should keep the words of text that is not JSON, and end an unterminated string', () => {
    expect(jsonTextValues('[INFO] started "job 7', 100)).toBe('INFO started\njob 7');
    expect(looksLikeJson('[31mFAIL')).toBe(false);
    expect(looksLikeJson(' {"a": 1} ')).toBe(true);
  });
});
