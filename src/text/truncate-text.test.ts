import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasLoneSurrogate, mixedText, PROPERTY_RUNS } from '../../test/support/arbitraries.js';
import { safeCutIndex } from './grapheme-cut.js';
import { safeHead, safeTail, truncateEnd, truncateMiddle } from './truncate-text.js';

// 'a😀b' is four UTF-16 units: a, high surrogate, low surrogate, b.
const PAIR = 'a😀b';
const MARKER = /\n\[\.\.\. omitted (\d+) of (\d+) characters \.\.\.\]\n/;

describe('safeCutIndex', () => {
  describe('out-of-range indexes', () => {
    it('should clamp a negative index to 0', () => {
      expect(safeCutIndex(PAIR, -3)).toBe(0);
    });

    it('should clamp an index past the end to the length', () => {
      expect(safeCutIndex(PAIR, 99)).toBe(4);
    });
  });

  describe('surrogate pairs', () => {
    it('should step back one unit when the index falls inside a pair', () => {
      expect(safeCutIndex(PAIR, 2)).toBe(1);
    });

    it('should keep an index on either side of a pair', () => {
      expect(safeCutIndex(PAIR, 1)).toBe(1);
      expect(safeCutIndex(PAIR, 3)).toBe(3);
    });
  });
});

// safeHead and safeTail are mirrors: one keeps a prefix of at most `limit` units, the other a suffix.
const MIRRORS = [
  {
    name: 'safeHead',
    cut: safeHead,
    side: 'prefix',
    keeps: (text: string, part: string) => text.startsWith(part),
    // The first 2 units are 'a' and the high surrogate: the pair would be split, so only 'a' is kept.
    splitPair: 'a',
    wholePair: 'a😀',
  },
  {
    name: 'safeTail',
    cut: safeTail,
    side: 'suffix',
    keeps: (text: string, part: string) => text.endsWith(part),
    // The last 2 units are the low surrogate and 'b': the pair would be split, so only 'b' is kept.
    splitPair: 'b',
    wholePair: '😀b',
  },
];

for (const { name, cut, side, keeps, splitPair, wholePair } of MIRRORS) {
  describe(name, () => {
    describe('limits', () => {
      it('should return an empty string for a limit of 0 or less', () => {
        expect(cut(PAIR, 0)).toBe('');
        expect(cut(PAIR, -1)).toBe('');
        expect(cut(PAIR, -2)).toBe('');
      });

      it('should return the whole text when the limit is its length or more', () => {
        expect(cut(PAIR, 4)).toBe(PAIR);
        expect(cut(PAIR, 10)).toBe(PAIR);
      });
    });

    describe('surrogate pairs', () => {
      it('should leave out a pair that does not fit whole', () => {
        expect(cut(PAIR, 2)).toBe(splitPair);
      });

      it('should keep a pair that fits whole', () => {
        expect(cut(PAIR, 3)).toBe(wholePair);
      });
    });

    describe('laws', () => {
      it(`should be a ${side} of the text no longer than the limit, and never split a pair`, () => {
        fc.assert(
          fc.property(mixedText(), fc.integer({ min: -5, max: 250 }), (text, limit) => {
            const part = cut(text, limit);
            expect(keeps(text, part)).toBe(true);
            expect(part.length).toBeLessThanOrEqual(Math.max(0, limit));
            expect(hasLoneSurrogate(part)).toBe(false);
          }),
          PROPERTY_RUNS,
        );
      });
    });
  });
}

describe('truncateMiddle', () => {
  describe('limits', () => {
    it('should return an empty string for a limit of 0 or less', () => {
      expect(truncateMiddle('some text', 0)).toBe('');
      expect(truncateMiddle('some text', -4)).toBe('');
    });
  });

  describe('texts that fit', () => {
    it('should return the text unchanged when it fits', () => {
      expect(truncateMiddle('short text', 10)).toBe('short text');
    });
  });

  describe('texts that are cut', () => {
    it('should keep 60% of the room for the head, the rest for the tail, and count what was left out', () => {
      const text = 'a'.repeat(600) + 'b'.repeat(400);
      // The widest marker, '\n[... omitted 1000 of 1000 characters ...]\n', is 1 + 5 + 8 + 4 + 4 + 4 + 11 + 5 + 1 = 43
      // characters: room = 100 - 43 = 57, head = ceil(57 × 0.6) = 35, tail = 57 - 35 = 22, omitted = 1000 - 35 - 22 = 943.
      expect(truncateMiddle(text, 100)).toBe(
        `${'a'.repeat(35)}\n[... omitted 943 of 1000 characters ...]\n${'b'.repeat(22)}`,
      );
    });

    it('should stay within a limit too small for the marker', () => {
      // The marker alone is 43 characters; a 10-character limit keeps 9 characters and an ellipsis.
      expect(truncateMiddle('x'.repeat(1000), 10)).toBe(`${'x'.repeat(9)}…`);
    });

    it('should not split an emoji at either cut', () => {
      const text = '😀'.repeat(500);
      const cut = truncateMiddle(text, 101);
      expect(hasLoneSurrogate(cut)).toBe(false);
    });
  });

  describe('laws', () => {
    it('should never exceed the limit', () => {
      fc.assert(
        fc.property(mixedText({ maxLength: 400 }), fc.nat(600), (text, limit) => {
          expect(truncateMiddle(text, limit).length).toBeLessThanOrEqual(Math.max(limit, 0));
        }),
        PROPERTY_RUNS,
      );
    });

    it('should never split a surrogate pair (emoji, CJK, combining marks)', () => {
      fc.assert(
        fc.property(mixedText({ maxLength: 400 }), fc.nat(600), (text, limit) => {
          expect(hasLoneSurrogate(truncateMiddle(text, limit))).toBe(false);
        }),
        PROPERTY_RUNS,
      );
    });

    it('should keep a head and a tail of the text around a marker that counts exactly what was left out', () => {
      fc.assert(
        fc.property(mixedText({ minLength: 60, maxLength: 400 }), fc.integer({ min: 50, max: 600 }), (text, limit) => {
          fc.pre(text.length > limit);
          const cut = truncateMiddle(text, limit);
          const match = MARKER.exec(cut);
          expect(match).not.toBeNull();
          const head = cut.slice(0, match?.index);
          const tail = cut.slice((match?.index ?? 0) + (match?.[0].length ?? 0));
          expect(text.startsWith(head)).toBe(true);
          expect(text.endsWith(tail)).toBe(true);
          expect(Number(match?.[1])).toBe(text.length - head.length - tail.length);
          expect(Number(match?.[2])).toBe(text.length);
        }),
        PROPERTY_RUNS,
      );
    });
  });
});

describe('truncateEnd', () => {
  describe('limits', () => {
    it('should return the text unchanged when it fits', () => {
      expect(truncateEnd('hello', 5)).toBe('hello');
    });

    it('should return an empty string for a limit of 0', () => {
      expect(truncateEnd('hello', 0)).toBe('');
    });

    it('should cut without an ellipsis for a limit of 1', () => {
      expect(truncateEnd('hello', 1)).toBe('h');
    });
  });

  describe('texts that are cut', () => {
    it('should end with an ellipsis and stay within the limit', () => {
      // 4 characters: 3 of text and the ellipsis.
      expect(truncateEnd('hello', 4)).toBe('hel…');
    });

    it('should drop a pair that the ellipsis would split', () => {
      // 'ab😀cd' cut to 4: the head may use 3 units, which would split the pair at index 2..3.
      expect(truncateEnd('ab😀cd', 4)).toBe('ab…');
    });
  });

  describe('laws', () => {
    it('should never exceed the limit nor split a surrogate pair', () => {
      fc.assert(
        fc.property(mixedText(), fc.nat(250), (text, limit) => {
          const cut = truncateEnd(text, limit);
          expect(cut.length).toBeLessThanOrEqual(limit);
          expect(hasLoneSurrogate(cut)).toBe(false);
        }),
        PROPERTY_RUNS,
      );
    });
  });
});
