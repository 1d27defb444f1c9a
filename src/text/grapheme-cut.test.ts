import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROPERTY_RUNS } from '../../test/support/arbitraries.js';
import { graphemeBoundaryAfter, graphemeBoundaryBefore } from './grapheme-cut.js';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Grapheme-cluster boundaries of `text`, both ends included, in order. */
function boundaries(text: string): number[] {
  const list = [...segmenter.segment(text)].map((segment) => segment.index);
  return [...list, text.length];
}

// Units around which the plain-boundary shortcut must defer to the segmenter: CR LF, combining marks after
// ASCII and after a Han character, Hangul jamo, a prepended Arabic sign, emoji sequences, flags.
const unit = fc.constantFrom(
  'a',
  ' ',
  '\r',
  '\n',
  '\r\n',
  '漢',
  '字',
  'e\u0301',
  '漢\u0301',
  '\u0301',
  '\u1100\u1161',
  '각',
  '\u0600',
  'ก\u0e33',
  '😀',
  '👍🏽',
  '👨‍👩‍👧',
  '🇫🇷',
  '#\ufe0f\u20e3',
);
const textAndIndex = fc
  .array(unit, { minLength: 1, maxLength: 60 })
  .map((units) => units.join(''))
  .chain((text) => fc.tuple(fc.constant(text), fc.integer({ min: 0, max: text.length })));

describe('grapheme cuts', () => {
  describe('laws', () => {
    it('should move a cut back to the last cluster boundary at or before it', () => {
      fc.assert(
        fc.property(textAndIndex, ([text, index]) => {
          const expected = boundaries(text)
            .filter((boundary) => boundary <= index)
            .pop();
          expect(graphemeBoundaryBefore(text, index, 0)).toBe(expected);
        }),
        PROPERTY_RUNS,
      );
    });

    it('should move a cut forward to the first cluster boundary at or after it', () => {
      fc.assert(
        fc.property(textAndIndex, ([text, index]) => {
          const expected = boundaries(text).find((boundary) => boundary >= index);
          expect(graphemeBoundaryAfter(text, index, text.length)).toBe(expected);
        }),
        PROPERTY_RUNS,
      );
    });
  });
});
