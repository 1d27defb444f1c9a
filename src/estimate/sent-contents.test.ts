import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { editedInPlace, inPlaceChange, sentContents } from './sent-contents.js';
import { estimateContentTokens } from './estimate-content.js';
import { tiktokenTokenizer as tokenizer } from './tokenizer.js';

const LOGS = 'GET /api/v1/orders status=200 latency_ms=1878\n'.repeat(40);

const contents = (): Content[] => [
  { role: 'user', parts: [{ text: 'question' }] },
  { role: 'model', parts: [{ text: 'answer' }, { functionCall: { name: 'fetch_logs', args: {} } }] },
  { role: 'user', parts: [{ text: 'Budget: 1,200 of 8,000 tokens.' }] },
  { role: 'user' },
  { role: 'user', parts: [{ functionResponse: { name: 'fetch_logs', response: { output: LOGS, status: 'ok' } } }] },
];
const result = (now: Content[]) => now[4]!.parts![0]!.functionResponse!;

describe('editedInPlace', () => {
  it('should find nothing edited when the contents are as sent, added to or not', () => {
    const now = contents();
    const sent = sentContents([...now]);
    now.push({ role: 'user', parts: [{ text: 'added after' }] });
    expect(editedInPlace(sent)).toBe(false);
  });

  it.each<[string, (now: Content[]) => void]>([
    ['a part pushed into the budget line', (now) => void now[2]!.parts!.push({ text: 'NOTE' })],
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

describe('editedInPlace, for a retry', () => {
  it.each<[string, (now: Content[]) => void]>([
    ['a result field cut in place', (now) => void (result(now).response!['output'] = 'cut')],
    [
      'a result swapped in the same part',
      (now) => void (now[4]!.parts![0]!.functionResponse = { name: 'x', response: {} }),
    ],
  ])('should not count %s, which a retry keeps with the part it sends', (_edit, edit) => {
    const now = contents();
    const sent = sentContents([...now]);
    edit(now);
    expect(editedInPlace(sent)).toBe(false);
  });
});

describe('inPlaceChange', () => {
  const tokensOf = (list: readonly Content[]): number =>
    list.reduce((sum, content) => sum + estimateContentTokens(content, tokenizer), 0);
  const BLOCK = 'Every answer cites the runbook section it relies on. '.repeat(40);

  it.each<[string, (now: Content[]) => void]>([
    ['a text appended to', (now) => void (now[0]!.parts![0]!.text += BLOCK)],
    ['a part replaced by a shorter one', (now) => void (now[1]!.parts![1] = { text: 'x' })],
    ['the parts list replaced', (now) => void (now[2]!.parts = [{ text: BLOCK }])],
    ['a part removed', (now) => void now[1]!.parts!.pop()],
    ['a result field cut in place', (now) => void (result(now).response!['output'] = LOGS.slice(0, 40))],
    ['a result field added in place', (now) => void (result(now).response!['note'] = BLOCK)],
    ['a result field deleted in place', (now) => void delete result(now).response!['output']],
    ['a result response replaced', (now) => void (result(now).response = { output: 'short' })],
    [
      'a result swapped in the same part',
      (now) => void (now[4]!.parts![0]!.functionResponse = { name: 'fetch_logs', response: {} }),
    ],
    ['call arguments filled in place', (now) => void (now[1]!.parts![1]!.functionCall!.args!['query'] = BLOCK)],
  ])('should count what %s gained or lost, signed', (_edit, edit) => {
    const now = contents();
    const before = tokensOf(structuredClone(now));
    const sent = sentContents([...now]);
    edit(now);
    const change = inPlaceChange(sent, tokenizer);
    expect(change).not.toBe(0);
    expect(change).toBe(tokensOf(now) - before);
  });

  it('should count nothing when nothing was edited in place, added to or not', () => {
    const now = contents();
    const sent = sentContents([...now]);
    now.push({ role: 'user', parts: [{ text: BLOCK }] });
    expect(inPlaceChange(sent, tokenizer)).toBe(0);
  });
});
