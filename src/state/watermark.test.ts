import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROPERTY_RUNS } from '../../test/support/arbitraries.js';
import { anchorAt, locateSummary, locateWatermark, type FingerprintAt } from './watermark.js';

/** Fingerprints of a history given as a list, one per content. */
function printsOf(prints: readonly string[]): FingerprintAt {
  return (index) => prints[index];
}

const HISTORY = ['f0', 'f1', 'f2', 'f3', 'f4', 'f5'];

/** Distinct fingerprints, so that an anchor matches exactly one position. */
const distinctPrints = fc.uniqueArray(
  fc.string({ minLength: 1, maxLength: 6 }).map((text) => `p:${text}`),
  { minLength: 1, maxLength: 30 },
);

describe('anchorAt', () => {
  describe('watermarks at the start', () => {
    it('should mark a watermark of 1 as anchored to the start', () => {
      expect(anchorAt(printsOf(HISTORY), 1)).toBe('^|f0');
    });
  });

  describe('watermarks further in', () => {
    it('should join the fingerprints of the two contents before the watermark', () => {
      expect(anchorAt(printsOf(HISTORY), 3)).toBe('f1|f2');
    });

    it('should leave a missing fingerprint empty', () => {
      expect(anchorAt(printsOf(HISTORY), 8)).toBe('|');
    });
  });
});

describe('locateWatermark', () => {
  describe('histories where it cannot be found', () => {
    it('should report missing for an empty history', () => {
      expect(locateWatermark(printsOf([]), 0, 3, 'f1|f2')).toEqual({ kind: 'missing' });
    });

    it('should report missing when the anchored contents are gone', () => {
      const rewritten = ['f0', 'x1', 'x2', 'f3', 'f4', 'f5'];
      expect(locateWatermark(printsOf(rewritten), 6, 3, 'f1|f2')).toEqual({ kind: 'missing' });
    });

    it('should report missing for a start anchor once something was inserted before it', () => {
      expect(locateWatermark(printsOf(['new', ...HISTORY]), 7, 1, '^|f0')).toEqual({ kind: 'missing' });
    });
  });

  describe('histories where it is found', () => {
    it('should match exactly when the history is unchanged or only grew', () => {
      expect(locateWatermark(printsOf(HISTORY), 6, 3, 'f1|f2')).toEqual({ kind: 'exact', covered: 3 });
      expect(locateWatermark(printsOf([...HISTORY, 'f6']), 7, 3, 'f1|f2')).toEqual({ kind: 'exact', covered: 3 });
    });

    it('should follow the anchor when contents were inserted before it', () => {
      expect(locateWatermark(printsOf(['other agent', 'other agent 2', ...HISTORY]), 8, 3, 'f1|f2')).toEqual({
        kind: 'moved',
        covered: 5,
      });
    });

    it('should follow the anchor when contents before it were removed', () => {
      const rewound = ['f1', 'f2', 'f3'];
      expect(locateWatermark(printsOf(rewound), 3, 3, 'f1|f2')).toEqual({ kind: 'moved', covered: 2 });
    });

    it('should follow the anchor when the history is now shorter than the watermark', () => {
      expect(locateWatermark(printsOf(['f1', 'f2']), 2, 5, 'f1|f2')).toEqual({ kind: 'moved', covered: 2 });
    });

    it('should prefer the nearest of two matching positions', () => {
      // The anchor 'a|b' sits at 2 and at 6; the recorded position is 5.
      const repeated = ['a', 'b', 'c', 'd', 'a', 'b', 'e'];
      expect(locateWatermark(printsOf(repeated), 7, 5, 'a|b')).toEqual({ kind: 'moved', covered: 6 });
    });
  });

  describe('laws', () => {
    it('should find every watermark exactly in the history it was anchored in', () => {
      fc.assert(
        fc.property(distinctPrints, fc.nat(), (prints, seed) => {
          const covered = 1 + (seed % prints.length);
          expect(
            locateWatermark(printsOf(prints), prints.length, covered, anchorAt(printsOf(prints), covered)),
          ).toEqual({ kind: 'exact', covered });
        }),
        PROPERTY_RUNS,
      );
    });

    it('should follow a watermark past contents inserted before it', () => {
      fc.assert(
        fc.property(distinctPrints, fc.nat(), fc.integer({ min: 1, max: 10 }), (prints, seed, inserted) => {
          fc.pre(prints.length >= 2);
          const covered = 2 + (seed % (prints.length - 1));
          const anchor = anchorAt(printsOf(prints), covered);
          const grown = [...Array.from({ length: inserted }, (_, i) => `inserted ${i}`), ...prints];
          expect(locateWatermark(printsOf(grown), grown.length, covered, anchor)).toEqual({
            kind: 'moved',
            covered: covered + inserted,
          });
        }),
        PROPERTY_RUNS,
      );
    });

    it('should only ever return a position whose anchor matches', () => {
      fc.assert(
        fc.property(
          fc.array(fc.constantFrom('a', 'b', 'c'), { maxLength: 20 }),
          fc.nat(25),
          fc.constantFrom('a|b', 'b|c', '^|a', 'c|c'),
          (prints, covered, anchor) => {
            const match = locateWatermark(printsOf(prints), prints.length, covered, anchor);
            if (match.kind !== 'missing') {
              expect(match.covered).toBeGreaterThanOrEqual(1);
              expect(match.covered).toBeLessThanOrEqual(prints.length);
              expect(anchorAt(printsOf(prints), match.covered)).toBe(anchor);
            }
          },
        ),
        PROPERTY_RUNS,
      );
    });
  });
});

describe('locateSummary', () => {
  const prints = printsOf(HISTORY);

  it('should find a summary without a kept content where its watermark is', () => {
    expect(locateSummary(prints, 6, { covered: 3, anchor: 'f1|f2' })).toEqual({ kind: 'found', covered: 3 });
  });

  it('should find the kept content at its recorded place', () => {
    expect(locateSummary(prints, 6, { covered: 4, anchor: 'f2|f3', kept: { at: 1, fingerprint: 'f1' } })).toEqual({
      kind: 'found',
      covered: 4,
      keptAt: 1,
    });
  });

  it('should move the kept content with a moved watermark', () => {
    // Recorded at covered 3 (anchor f2|f3 now ends at 4): the kept content, 2 before, moves from 1 to 2.
    expect(locateSummary(prints, 6, { covered: 3, anchor: 'f2|f3', kept: { at: 0, fingerprint: 'f1' } })).toEqual({
      kind: 'found',
      covered: 4,
      keptAt: 1,
    });
  });

  it('should report missing when the kept content is not where it should be, or the watermark is gone', () => {
    const kept = locateSummary(prints, 6, { covered: 4, anchor: 'f2|f3', kept: { at: 1, fingerprint: 'other' } });
    expect(kept).toMatchObject({ kind: 'missing', reason: expect.stringMatching(/kept at 1/) });
    expect(locateSummary(prints, 6, { covered: 4, anchor: 'x|y', kept: { at: 1, fingerprint: 'f1' } })).toMatchObject({
      kind: 'missing',
      reason: expect.stringMatching(/watermark at 4/),
    });
  });

  it('should find the kept content near its recorded place when events read back in another order moved it', () => {
    // Recorded 2 before the watermark at 4 (index 2), now at 1: a store returned two events of one millisecond swapped.
    const swapped = printsOf(['f0', 'f2', 'f1', 'f3', 'f4', 'f5']);
    expect(locateSummary(swapped, 6, { covered: 4, anchor: 'f1|f3', kept: { at: 2, fingerprint: 'f2' } })).toEqual({
      kind: 'found',
      covered: 4,
      keptAt: 1,
    });
  });

  it('should never place the kept content at or after the watermark', () => {
    expect(locateSummary(prints, 6, { covered: 4, anchor: 'f2|f3', kept: { at: 4, fingerprint: 'f4' } })).toMatchObject(
      { kind: 'missing' },
    );
    expect(
      locateSummary(prints, 6, { covered: 2, anchor: 'f0|f1', kept: { at: -1, fingerprint: 'f0' } }),
    ).toMatchObject({ kind: 'missing' });
  });
});
