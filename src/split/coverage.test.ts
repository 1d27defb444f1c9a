import { describe, expect, it } from 'vitest';
import { modelText, userText } from '../../test/support/builders.js';
import { inFlightRequestTokens, newlyCovered, uncoveredContents, uncoveredTokens } from './coverage.js';

const CONTENTS = [
  userText('a'),
  modelText('b'),
  userText('task'),
  modelText('step 1'),
  modelText('step 2'),
  modelText('step 3'),
];
const TOKENS = [1, 2, 40, 8, 16, 32];

describe('uncoveredContents', () => {
  it('should leave everything from the watermark on when nothing is kept', () => {
    expect(uncoveredContents(CONTENTS, { covered: 3 })).toEqual(CONTENTS.slice(3));
    expect(uncoveredContents(CONTENTS, { covered: 0 })).toEqual(CONTENTS);
  });

  it('should put the kept content first, the very object, then everything from the watermark', () => {
    const view = uncoveredContents(CONTENTS, { covered: 5, keptAt: 2 });
    expect(view).toHaveLength(2);
    expect(view[0]).toBe(CONTENTS[2]);
    expect(view[1]).toBe(CONTENTS[5]);
  });

  it('should ignore a kept index outside the contents', () => {
    expect(uncoveredContents(CONTENTS, { covered: 5, keptAt: 9 })).toEqual([CONTENTS[5]]);
  });
});

describe('uncoveredTokens', () => {
  it('should count the kept content and the contents from the watermark', () => {
    expect(uncoveredTokens(TOKENS, { covered: 4 })).toBe(48);
    expect(uncoveredTokens(TOKENS, { covered: 4, keptAt: 2 })).toBe(88);
  });
});

describe('newlyCovered', () => {
  it('should cover the contents between the watermarks, except the one kept', () => {
    expect(newlyCovered({ covered: 0 }, { covered: 3 })).toEqual([0, 1, 2]);
    expect(newlyCovered({ covered: 0 }, { covered: 5, keptAt: 2 })).toEqual([0, 1, 3, 4]);
  });

  it('should not cover a content that stays kept', () => {
    expect(newlyCovered({ covered: 4, keptAt: 2 }, { covered: 5, keptAt: 2 })).toEqual([4]);
  });

  it('should cover the previously kept content first once it is no longer kept', () => {
    expect(newlyCovered({ covered: 4, keptAt: 2 }, { covered: 6 })).toEqual([2, 4, 5]);
  });
});

describe('inFlightRequestTokens', () => {
  it('should count the latest request when a compaction keeps it, and nothing once it is summarized', () => {
    expect(inFlightRequestTokens(CONTENTS, TOKENS, { covered: 0 })).toBe(40);
    expect(inFlightRequestTokens(CONTENTS, TOKENS, { covered: 5, keptAt: 2 })).toBe(40);
    expect(inFlightRequestTokens(CONTENTS, TOKENS, { covered: 5 })).toBe(0);
    expect(inFlightRequestTokens([modelText('x')], [3], { covered: 0 })).toBe(0);
  });
});
