/**
 * `splitDigitsTokenizer` against Gemma 3's tokenizer (the published sibling of Gemini's, a dev dependency): on text
 * full of numbers it counts what Gemma counts, where o200k counts far less (docs/design.md, "Digits, one token each").
 */
import { describe, expect, it } from 'vitest';
import { loadGroundTruthTokenizer } from '../../simulator/gemma-tokenizer.js';
import { splitDigitsTokenizer, tiktokenTokenizer } from '../../src/index.js';
import { SeededRandom } from '../../src/testing/index.js';

const random = new SeededRandom(7);
const number = (digits: number): string => String(10 ** (digits - 1) + random.int(9 * 10 ** (digits - 1)));
const texts = {
  numbers: Array.from({ length: 300 }, () => number(7)).join(' '),
  logs: Array.from(
    { length: 60 },
    (_, i) =>
      `2026-12-07T12:${String(i % 60).padStart(2, '0')}:03.123Z INFO [w-${i % 7}] id=${number(6)} took ${number(3)}ms`,
  ).join('\n'),
  records: JSON.stringify(Array.from({ length: 60 }, () => ({ id: Number(number(6)), ts: Number(number(10)) }))),
};

describe('splitDigitsTokenizer against Gemma 3', () => {
  it.each(Object.entries(texts))(
    'should count %s within 10% of Gemma, where o200k counts a fifth less or lower',
    async (_kind, text) => {
      const { tokenizer: gemma, fallbackReason } = await loadGroundTruthTokenizer();
      expect(fallbackReason).toBeUndefined();
      const real = gemma.count(text);
      expect(real / splitDigitsTokenizer.count(text)).toBeGreaterThan(0.9);
      expect(real / splitDigitsTokenizer.count(text)).toBeLessThan(1.1);
      expect(real / tiktokenTokenizer.count(text)).toBeGreaterThan(1.25);
    },
  );
});
