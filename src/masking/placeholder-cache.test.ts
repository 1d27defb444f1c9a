import { describe, expect, it } from 'vitest';
import { PlaceholderCache, type MaskedEntry } from './placeholder-cache.js';

const entry = (fingerprint: string): MaskedEntry => ({ fingerprint, terms: '200::-', masked: undefined, tokens: 200 });

describe('PlaceholderCache', () => {
  it('should keep each session and agent apart', () => {
    const cache = new PlaceholderCache();
    cache.for('app\u0000u\u0000s1\u0000worker').set(2, entry('a'));
    expect(cache.for('app\u0000u\u0000s2\u0000worker').at(2)).toBeUndefined();
    expect(cache.for('app\u0000u\u0000s1\u0000critic').at(2)).toBeUndefined();
    expect(cache.for('app\u0000u\u0000s1\u0000worker').at(2)?.fingerprint).toBe('a');
  });

  it('should drop the least recently used session first', () => {
    const cache = new PlaceholderCache({ sessions: 2 });
    cache.for('s1').set(0, entry('a'));
    cache.for('s2').set(0, entry('b'));
    cache.for('s1');
    cache.for('s3').set(0, entry('c'));
    expect(cache.sessionCount).toBe(2);
    expect(cache.for('s1').at(0)?.fingerprint).toBe('a');
    expect(cache.for('s2').at(0)).toBeUndefined();
  });

  it('should hold at most its number of entries, dropping other sessions before its own', () => {
    const cache = new PlaceholderCache({ entries: 3 });
    cache.for('s1').set(0, entry('a'));
    const own = cache.for('s2');
    for (let i = 0; i < 5; i++) own.set(i, entry(`b${i}`));
    expect(cache.entryCount).toBe(3);
    expect(own.at(4)?.fingerprint).toBe('b4');
    expect(own.at(0)).toBeUndefined();
    expect(cache.for('s1').at(0)).toBeUndefined();
  });

  it("should forget every agent of one session, and nothing of another's", () => {
    const cache = new PlaceholderCache();
    cache.for('app\u0000u\u0000s1\u0000worker').set(0, entry('a'));
    cache.for('app\u0000u\u0000s1\u0000critic').set(0, entry('b'));
    cache.for('app\u0000u\u0000s10\u0000worker').set(0, entry('c'));
    cache.forgetPrefix('app\u0000u\u0000s1\u0000');
    expect(cache.entryCount).toBe(1);
    expect(cache.for('app\u0000u\u0000s10\u0000worker').at(0)?.fingerprint).toBe('c');
  });
});
