/**
 * Parts kept in place in a content of many parts (found by review 9): a short last question stays beside the
 * documents kept in place, and a part cut to its floor is no longer kept in place (a room of 150 tokens got 17,596).
 */
import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { charsPerTokenTokenizer } from '../estimate/tokenizer.js';
import { shrinkContentsToBudget } from './oversized-parts.js';

const text = (chars: number, tag: string) =>
  `${tag} lorem ipsum dolor sit amet consectetur `.repeat(Math.ceil(chars / 40)).slice(0, chars);
const documents = (count: number) => Array.from({ length: count }, (_, i) => ({ text: text(30_000, `DOC${i}`) }));

describe('many parts, several of them large', () => {
  it("should keep the user's short question after sixteen large documents (7c5aeb6 drops it: no room is left)", () => {
    const question = 'What does section 3 of these files say about retries?';
    const content: Content = { role: 'user', parts: [...documents(16), { text: question }] };
    const { contents, tokens } = shrinkContentsToBudget([content], 8_000, charsPerTokenTokenizer);
    const kept = (contents[0]?.parts ?? []).map((part) => part.text ?? '');
    expect(tokens).toBeLessThanOrEqual(8_000);
    expect(kept).toContain(question);
  });

  it('should, at the floor, drop middle parts of seventeen large ones rather than keep all seventeen at their floor', () => {
    // 7c5aeb6: the floor pass (limit 200 bytes) keeps every part over 100 bytes in place: 1,534 tokens where 400 fit.
    const content: Content = { role: 'user', parts: documents(17) };
    const { tokens } = shrinkContentsToBudget([content], 400, charsPerTokenTokenizer);
    expect(tokens).toBeLessThanOrEqual(400);
  });
});

describe('many large parts at a small room', () => {
  it('should drop middle parts rather than keep two hundred cut documents when the room is small', () => {
    // 7c5aeb6: once every document is at its floor (under 512 bytes, never cut again) each is still over half
    // the content's limit, so kept in place: 17,596 tokens sent for a room of 150 (106 before 7c5aeb6).
    const content: Content = { role: 'user', parts: documents(200) };
    const { tokens } = shrinkContentsToBudget([content], 150, charsPerTokenTokenizer);
    expect(tokens).toBeLessThanOrEqual(150);
  });

  it('should, at the floor pass, leave a content of many large parts at its head and tail, not every part at its floor', () => {
    // A budget of 0 leaves no room for the rounds: only the floor pass runs (15 tokens before 7c5aeb6, 1,534 after).
    const content: Content = { role: 'user', parts: documents(17) };
    const { tokens } = shrinkContentsToBudget([content], 0, charsPerTokenTokenizer);
    expect(tokens).toBeLessThan(200);
  });
});
