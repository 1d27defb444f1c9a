import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { editedInPlace, sentContents } from './sent-contents.js';

const contents = (): Content[] => [
  { role: 'user', parts: [{ text: 'question' }] },
  { role: 'model', parts: [{ text: 'answer' }, { functionCall: { name: 'fetch_logs', args: {} } }] },
  { role: 'user', parts: [{ text: 'Budget: 1,200 of 8,000 tokens.' }] },
  { role: 'user' },
];

describe('editedInPlace', () => {
  it('should find nothing edited when the contents are as sent, added to or not', () => {
    const now = contents();
    const sent = sentContents([...now]);
    now.push({ role: 'user', parts: [{ text: 'added after' }] });
    expect(editedInPlace(sent)).toBe(false);
  });

  it.each<[string, (now: Content[]) => void]>([
    ['a part pushed into the last content', (now) => void now.at(-2)!.parts!.push({ text: 'NOTE' })],
    ['a part removed', (now) => void now[1]!.parts!.pop()],
    ['a part replaced', (now) => void (now[0]!.parts![0] = { text: 'redacted' })],
    ['a part’s text appended to', (now) => void (now[0]!.parts![0]!.text += ' NOTE')],
    ['the parts list replaced', (now) => void (now[2]!.parts = [{ text: 'other' }])],
    ['parts given to a content that had none', (now) => void (now[3]!.parts = [{ text: 'NOTE' }])],
    ['the role changed', (now) => void (now[0]!.role = 'model')],
  ])('should find %s', (_edit, edit) => {
    const now = contents();
    const sent = sentContents([...now]);
    edit(now);
    expect(editedInPlace(sent)).toBe(true);
  });

  it('should find nothing edited in no contents', () => {
    expect(editedInPlace(sentContents([]))).toBe(false);
  });
});

describe('sentContents on a long request', () => {
  const long = (): Content[] =>
    Array.from({ length: 40 }, (_, i) => ({ role: i % 2 ? 'model' : 'user', parts: [{ text: `content ${i}` }] }));

  it('should look at the first and last contents, where the guard and plugins put what they add', () => {
    for (const at of [0, 2, 36, 39]) {
      const now = long();
      const sent = sentContents(now);
      now[at]!.parts!.push({ text: 'NOTE' });
      expect(editedInPlace(sent)).toBe(true);
    }
  });

  it('should look at a fixed number of contents, however long the request', () => {
    expect(sentContents(long()).looked.length).toBe(sentContents([...long(), ...long()]).looked.length);
  });
});
