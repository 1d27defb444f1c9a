import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { characterTokenizer } from '../../test/support/tokenizers.js';
import { addedContents, addedContentTokens, aroundAdded } from './added-contents.js';

const text = (value: string): Content => ({ role: 'user', parts: [{ text: value }] });

describe('addedContents', () => {
  const left = [text('a'), text('b'), text('c')];

  it('should find what was put before and after the guard’s contents, and put it around new ones', () => {
    const [profile, spike] = [text('profile'), text('spike')];
    const added = addedContents(left, [profile, ...left, spike]);
    expect(added).toEqual({ before: [profile], after: [spike] });
    const reduced = [text('summary'), left[2]!];
    expect(aroundAdded(added!, reduced)).toEqual([profile, ...reduced, spike]);
  });

  it('should find nothing added when the request is as the guard left it, or when the guard left nothing', () => {
    expect(addedContents(left, [...left])).toEqual({ before: [], after: [] });
    const extra = text('x');
    expect(addedContents([], [extra])).toEqual({ before: [], after: [extra] });
  });

  it('should take equal copies of the guard’s contents as its contents (a callback that copies changes nothing)', () => {
    const copies = left.map((content) => ({ ...content, parts: content.parts?.map((part) => ({ ...part })) }));
    const spike = text('spike');
    expect(addedContents(left, [...copies, spike])).toEqual({ before: [], after: [spike] });
  });

  it('should tell nothing when the guard’s contents were changed rather than added to', () => {
    // Copies that differ (a redaction), one removed, one put among them, reordered.
    expect(
      addedContents(
        left,
        left.map((content, i) => (i === 1 ? text('[redacted]') : { ...content })),
      ),
    ).toBeUndefined();
    expect(addedContents(left, [left[0]!, left[2]!])).toBeUndefined();
    expect(addedContents(left, [left[0]!, text('x'), left[1]!, left[2]!])).toBeUndefined();
    expect(addedContents(left, [left[1]!, left[0]!, left[2]!])).toBeUndefined();
  });

  it('should find the guard’s run after a copy of its first content was put before it', () => {
    const added = addedContents(left, [left[0]!, ...left]);
    expect(added).toEqual({ before: [left[0]], after: [] });
  });

  it('should count the tokens of what was added only', () => {
    const added = { before: [text('0123456789')], after: [text('01234')] };
    const alone = addedContentTokens({ before: [text('0123456789')], after: [] }, characterTokenizer);
    expect(addedContentTokens(added, characterTokenizer)).toBeGreaterThan(alone);
    expect(addedContentTokens({ before: [], after: [] }, characterTokenizer)).toBe(0);
  });
});
