/**
 * A content of many parts whose one large part is neither first nor last (found by review 8 on d679c7f): the large
 * part was cut to half the content's limit, no longer fitted the head behind the part before it, and was dropped
 * whole; the content went out at half its room with the document it was about gone. It is now kept in place, cut.
 */
import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { charsPerTokenTokenizer } from '../estimate/tokenizer.js';
import { shrinkContentsToBudget } from './oversized-parts.js';

const text = (chars: number, tag: string) =>
  `${tag} lorem ipsum dolor sit amet consectetur `.repeat(Math.ceil(chars / 40)).slice(0, chars);

describe('one large part among many small ones', () => {
  it('should keep some of a large part second or in the middle rather than drop it whole and leave half the room unused', () => {
    for (const at of [1, 10]) {
      const parts = Array.from({ length: 20 }, (_, i) => ({ text: text(800, `P${i}`) }));
      parts[at] = { text: text(60_000, 'DOCUMENT') };
      const content: Content = { role: 'user', parts };
      const { contents, tokens } = shrinkContentsToBudget([content], 8_000, charsPerTokenTokenizer);
      const kept = (contents[0]?.parts ?? []).map((part) => part.text ?? '');
      expect(kept.some((part) => part.startsWith('DOCUMENT'))).toBe(true);
      expect(tokens).toBeGreaterThan(8_000 * 0.6);
      expect(tokens).toBeLessThanOrEqual(8_000);
    }
  });
});
