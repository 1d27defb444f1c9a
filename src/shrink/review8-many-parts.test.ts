/**
 * Review 8 (d679c7f): a content of many parts whose one large part is not first nor last. The large part is cut
 * to half the content's limit, which with the parts before it no longer fits the head: it is then dropped whole,
 * and the content goes out at half its room with the document it was about gone (fails on main; not fixed here).
 */
import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { charsPerTokenTokenizer } from '../estimate/tokenizer.js';
import { shrinkContentsToBudget } from './oversized-parts.js';

const text = (chars: number, tag: string) =>
  `${tag} lorem ipsum dolor sit amet consectetur `.repeat(Math.ceil(chars / 40)).slice(0, chars);

describe('review 8: one large part among many small ones', () => {
  it('should keep some of a large second part rather than drop it whole and leave half the room unused', () => {
    const parts = Array.from({ length: 20 }, (_, i) => ({ text: text(800, `P${i}`) }));
    parts[1] = { text: text(60_000, 'DOCUMENT') };
    const content: Content = { role: 'user', parts };
    const { contents, tokens } = shrinkContentsToBudget([content], 8_000, charsPerTokenTokenizer);
    const kept = (contents[0]?.parts ?? []).map((part) => part.text ?? '');
    expect(kept.some((part) => part.startsWith('DOCUMENT'))).toBe(true);
    expect(tokens).toBeGreaterThan(8_000 * 0.6);
  });
});
