import { describe, expect, it } from 'vitest';
import { characterTokenizer } from '../../test/support/tokenizers.js';
import { addPin, decodePins, pinnedTokens, type Pin } from './pins.js';

function pin(text: string): Pin {
  return { id: text, text, source: 'application', createdAt: 1 };
}

describe('addPin', () => {
  describe('the cap', () => {
    it('should count the pins that ride alongside (the * pins) against the same cap', () => {
      const shared = [pin('x'.repeat(300))];
      const own = [pin('y'.repeat(100))];
      const next = pin('z'.repeat(100));
      const alone = pinnedTokens([...own, next], characterTokenizer);
      const together = pinnedTokens([...shared, ...own, next], characterTokenizer);
      const cap = alone + 50;
      expect(together).toBeGreaterThan(cap);
      expect(addPin(own, next, cap, characterTokenizer).ok).toBe(true);
      const refused = addPin(own, next, cap, characterTokenizer, shared);
      expect(refused).toMatchObject({ ok: false, tokens: together, cap });
    });

    it('should not add an identical pin twice', () => {
      const result = addPin([pin('keep this')], pin('keep this'), 1_000, characterTokenizer);
      expect(result.ok && result.pins).toHaveLength(1);
    });
  });
});

describe('decodePins', () => {
  it('should drop malformed entries and keep the rest', () => {
    expect(
      decodePins([pin('a'), { id: 1, text: 'b' }, { id: 'c', text: '   ' }, null, 'd']).map((entry) => entry.text),
    ).toEqual(['a']);
    expect(decodePins('garbage')).toEqual([]);
  });

  it('should read at most the first thousand entries of a list no cap could hold', () => {
    const list = Array.from({ length: 200_000 }, (_, at) => pin(`pin ${at}`));
    const read = decodePins(list);
    expect(read).toHaveLength(1_000);
    expect(read[0]?.text).toBe('pin 0');
  });
});
