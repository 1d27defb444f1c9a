import { describe, expect, it } from 'vitest';
import { jsonTailValues, jsonTextValues, looksLikeJson } from './json-text-values.js';

describe('jsonTextValues', () => {
  it('should give each string unescaped and each number as written', () => {
    const text =
      '{"id": 1234567890123456789, "price": 12.50, "exp": -1.5E+10, "note": "line one\\nline \\"two\\" \\u00e9\\\\x \\ud83d\\ude00", "ok": true, "none": null}';
    expect(jsonTextValues(text)?.split('\n')).toEqual([
      'id',
      '1234567890123456789',
      'price',
      '12.50',
      'exp',
      '-1.5E+10',
      'note',
      'line one',
      'line "two" é\\x 😀',
      'ok',
      'true',
      'none',
      'null',
    ]);
  });

  it('should read JSON inside a string as values too', () => {
    const inner = JSON.stringify({ output: 'PASS a\nFAIL b' });
    expect(jsonTextValues(JSON.stringify({ text: inner }))?.split('\n')).toEqual([
      'text',
      'output',
      'PASS a',
      'FAIL b',
    ]);
    // A string that only starts like JSON stays as it is.
    expect(jsonTextValues(JSON.stringify({ log: '[12:00:01] saved C:\\new "ok" [done]' }))).toBe(
      'log\n[12:00:01] saved C:\\new "ok" [done]',
    );
  });

  it('should refuse text that is not JSON rather than rewrite it', () => {
    expect(jsonTextValues('[INFO] started "job 7')).toBeUndefined();
    expect(jsonTextValues('[total: 1,234,567 USD]')).toBeUndefined();
    expect(jsonTextValues('{"a": "unclosed}')).toBeUndefined();
    expect(jsonTextValues('{"a": "bad \\q escape"}')).toBeUndefined();
    // Numbers run to a delimiter, and tokens come in JSON's order (review 44).
    expect(jsonTextValues('[2024-01-05]')).toBeUndefined();
    expect(jsonTextValues('[00123, 00456]')).toBeUndefined();
    expect(jsonTextValues('[12:00:01]')).toBeUndefined();
    expect(jsonTextValues('[::1]:8080')).toBeUndefined();
    expect(jsonTextValues('["a" "b"]')).toBeUndefined();
    // A string of brackets alone is kept as it is.
    expect(jsonTextValues(JSON.stringify({ s: ' { ' }))).toBe('s\n { ');
    expect(looksLikeJson(' {"a": 1} ')).toBe(true);
    expect(looksLikeJson('FAIL [x]')).toBe(false);
  });

  it('should read the head and the tail of a longer text as values, a cut inside a token or a number included', () => {
    const text = JSON.stringify({ output: 'PASS a\nFAIL b', id: 1234567890123456789n.toString(), n: 12.5 });
    for (let cut = 1; cut < text.length; cut++) {
      expect(jsonTextValues(text.slice(0, cut), { partial: true })).toBeDefined();
      expect(jsonTailValues(text.slice(cut))).toBeDefined();
    }
    const mcp = JSON.stringify({ content: [{ type: 'text', text: JSON.stringify({ output: 'x\nFAIL test/a.ts' }) }] });
    expect(jsonTailValues(mcp.slice(40))?.split('\n')).toContain('FAIL test/a.ts');
  });

  it('should read every value of a long text', () => {
    const rows = JSON.stringify(Array.from({ length: 60_000 }, (_, i) => ({ id: `row-${i}`, state: 'ok' })));
    expect(jsonTextValues(rows)?.endsWith('row-59999\nstate\nok')).toBe(true);
  });
});
