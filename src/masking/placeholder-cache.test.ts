import { describe, expect, it } from 'vitest';
import type { MaskHint } from './placeholder-text.js';
import { PlaceholderCache } from './placeholder-cache.js';
import type { MaskedEntry } from './masked-entry.js';

const entry = (fingerprint: string): MaskedEntry => ({
  fingerprint,
  tokensIn: 200,
  masked: undefined,
  tokens: 200,
  framing: 3,
});
const hint: MaskHint = { recallToolName: 'recall_context' };

describe('PlaceholderCache', () => {
  it('should keep each session and agent apart', () => {
    const cache = new PlaceholderCache();
    cache.for('app\u0000u\u0000s1\u0000worker').set(2, entry('a'), hint);
    expect(cache.for('app\u0000u\u0000s2\u0000worker').at(2, hint)).toBeUndefined();
    expect(cache.for('app\u0000u\u0000s1\u0000critic').at(2, hint)).toBeUndefined();
    expect(cache.for('app\u0000u\u0000s1\u0000worker').at(2, hint)?.fingerprint).toBe('a');
  });

  it('should drop the least recently used session first', () => {
    const cache = new PlaceholderCache({ sessions: 2 });
    cache.for('s1').set(0, entry('a'), hint);
    cache.for('s2').set(0, entry('b'), hint);
    cache.for('s1');
    cache.for('s3').set(0, entry('c'), hint);
    expect(cache.sessionCount).toBe(2);
    expect(cache.for('s1').at(0, hint)?.fingerprint).toBe('a');
    expect(cache.for('s2').at(0, hint)).toBeUndefined();
  });

  it('should hold at most its number of entries, dropping other sessions before its own', () => {
    const cache = new PlaceholderCache({ entries: 3 });
    cache.for('s1').set(0, entry('a'), hint);
    const own = cache.for('s2');
    for (let i = 0; i < 5; i++) own.set(i, entry(`b${i}`), hint);
    expect(cache.entryCount).toBe(3);
    expect(own.at(4, hint)?.fingerprint).toBe('b4');
    expect(own.at(0, hint)).toBeUndefined();
    expect(cache.for('s1').at(0, hint)).toBeUndefined();
  });

  it("should forget every agent of one session, and nothing of another's", () => {
    const cache = new PlaceholderCache();
    cache.for('app\u0000u\u0000s1\u0000worker').set(0, entry('a'), hint);
    cache.for('app\u0000u\u0000s1\u0000critic').set(0, entry('b'), hint);
    cache.for('app\u0000u\u0000s10\u0000worker').set(0, entry('c'), hint);
    cache.forgetPrefix('app\u0000u\u0000s1\u0000');
    expect(cache.entryCount).toBe(1);
    expect(cache.for('app\u0000u\u0000s10\u0000worker').at(0, hint)?.fingerprint).toBe('c');
  });

  it("should drop a session's entries when the recall tool or a tool's read-only verdict changes", () => {
    const cache = new PlaceholderCache();
    const memo = cache.for('s1');
    const masked = { role: 'user', parts: [{ functionResponse: { name: 'read_file', response: { masked: 1 } } }] };
    memo.set(0, { ...entry('a'), masked }, hint);
    expect(memo.at(0, { ...hint })?.fingerprint).toBe('a');
    expect(memo.at(0, { ...hint, isReadOnly: (name) => name === 'read_file' })).toBeUndefined();
    expect(cache.entryCount).toBe(0);
    memo.set(0, { ...entry('b'), masked }, hint);
    expect(memo.at(0, { recallToolName: 'other_recall' })).toBeUndefined();
  });
});
