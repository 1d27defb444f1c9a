import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROPERTY_RUNS } from '../../test/support/arbitraries.js';
import { COVERED_TAIL, coveredContentsAt, decodeCoveredContents } from './covered-contents.js';
import { HeadDigestMemo } from './head-digest-memo.js';
import { anchorAt, locateSummary, locateWatermark, type FingerprintAt, type SummaryPosition } from './watermark.js';

function printsOf(prints: readonly string[]): FingerprintAt {
  return (index) => prints[index];
}

/** The position a summary of `prints[0, covered)` is stored with, keeping `keptAt` when given. */
function positionOf(prints: readonly string[], covered: number, keptAt?: number): SummaryPosition {
  return {
    covered,
    anchor: anchorAt(printsOf(prints), covered),
    kept: keptAt === undefined ? undefined : { at: keptAt, fingerprint: prints[keptAt] ?? '' },
    contents: coveredContentsAt(printsOf(prints), covered),
  };
}

/** `prints` with the run `[from, to)` reversed (what a database's timestamp order does to a parallel run). */
function reversed(prints: readonly string[], from: number, to: number): string[] {
  return [...prints.slice(0, from), ...prints.slice(from, to).reverse(), ...prints.slice(to)];
}

const HISTORY = Array.from({ length: 40 }, (_, index) => `f${index}`);

describe('coveredContentsAt', () => {
  it('should keep the last covered contents by fingerprint, in order, and digest the rest whatever their order', () => {
    const contents = coveredContentsAt(printsOf(HISTORY), 30);
    expect(contents.tail).toEqual(HISTORY.slice(30 - COVERED_TAIL, 30));
    expect(coveredContentsAt(printsOf(reversed(HISTORY, 0, 30 - COVERED_TAIL)), 30)).toEqual(contents);
    expect(coveredContentsAt(printsOf(HISTORY.map((p, i) => (i === 2 ? 'other' : p))), 30).digest).not.toBe(
      contents.digest,
    );
  });

  it('should digest exactly as records already stored were digested (SHA-256 of each sorted fingerprint and a newline)', () => {
    // Digests written by the code of 2026-11-27 (one hash update per fingerprint): a stored record must still match.
    const prints = ['b7Xq1', 'a01', 'zz9', 'a01', 'Q', 'm3', 'k', 'c2', ...'defghijlnopqrstuvwx'];
    expect(coveredContentsAt(printsOf(prints), prints.length).digest).toBe(
      'SezjnPsp2I7x1fqE5aoDe1PesMPCsiCmD9VrkaOumUk=',
    );
    expect(coveredContentsAt(printsOf(prints), 20).digest).toBe('47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=');
  });
});

describe('coveredContentsAt over a list of fingerprints', () => {
  it('should read a position without one, or past the list, as the function form does', () => {
    const prints = HISTORY.map((print, index) => (index % 7 === 3 ? undefined : print));
    for (const covered of [0, 5, 24, 25, 30, 40, 45])
      expect(coveredContentsAt(prints, covered)).toEqual(coveredContentsAt((index) => prints[index], covered));
  });
});

describe("coveredContentsAt with the session's last head kept", () => {
  it('should give the record computed afresh, whatever the history did between two calls', () => {
    // Grown at its end (one content or many), changed, shortened, reordered, or another history altogether.
    const step = fc.oneof(
      fc.record({ kind: fc.constant('grow' as const), count: fc.nat(80) }),
      fc.record({ kind: fc.constant('change' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('reverse' as const), from: fc.nat(), to: fc.nat() }),
      fc.record({ kind: fc.constant('other' as const), count: fc.nat(60) }),
    );
    const print = fc.stringMatching(/^[a-z0-9+/]{0,3}$/);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(step, fc.nat(), fc.array(print, { maxLength: 80, size: 'max' })), { maxLength: 20 }),
        (steps) => {
          const memo = new HeadDigestMemo();
          // The same, given the list of fingerprints itself (a mask's record reads the measured ones).
          const listMemo = new HeadDigestMemo();
          let history: string[] = [];
          for (const [change, coveredSeed, fresh] of steps) {
            if (change.kind === 'grow') history = [...history, ...fresh.slice(0, change.count)];
            else if (change.kind === 'other') history = fresh.slice(0, change.count);
            else if (history.length === 0) continue;
            else if (change.kind === 'change')
              history = history.map((p, i) => (i === change.at % history.length ? `${p}x` : p));
            else if (change.kind === 'cut') history = history.slice(0, change.at % history.length);
            else history = reversed(history, change.from % history.length, change.to % (history.length + 1));
            // Mostly the whole history, as a mask at its end; sometimes less.
            const covered = coveredSeed % 3 === 0 ? coveredSeed % (history.length + 1) : history.length;
            const record = coveredContentsAt(printsOf(history), covered);
            expect(coveredContentsAt(printsOf(history), covered, memo)).toEqual(record);
            expect(coveredContentsAt(history, covered, listMemo)).toEqual(record);
            expect(coveredContentsAt(history, covered)).toEqual(record);
          }
        },
      ),
      PROPERTY_RUNS,
    );
  });
});

describe('decodeCoveredContents', () => {
  it('should read back what it wrote, after a JSON round trip', () => {
    const contents = coveredContentsAt(printsOf(HISTORY), 30);
    expect(decodeCoveredContents(JSON.parse(JSON.stringify(contents)), 30)).toEqual(contents);
  });

  it('should tell absent (an older record) from unusable', () => {
    expect(decodeCoveredContents(undefined, 3)).toBeUndefined();
    expect(decodeCoveredContents(null, 3)).toBeUndefined();
    for (const bad of ['x', 7, [], { digest: 1, tail: [] }, { digest: 'd', tail: 'f0' }, { digest: 'd', tail: [1] }])
      expect(decodeCoveredContents(bad, 3)).toBeNull();
    expect(decodeCoveredContents({ digest: 'd', tail: ['a', 'b', 'c', 'd'] }, 3)).toBeNull();
    expect(decodeCoveredContents({ digest: 'd', tail: ['x'.repeat(65)] }, 3)).toBeNull();
  });
});

describe('a watermark after its contents were reordered', () => {
  it('should find a summary at its watermark when the reorder stays inside what it covers', () => {
    // The run 24..30 ends at the watermark 30: its anchor (f28|f29) is gone, every covered content is there.
    const live = reversed(HISTORY, 24, 30);
    expect(locateWatermark(printsOf(live), 40, 30, anchorAt(printsOf(HISTORY), 30))).toEqual({ kind: 'missing' });
    expect(locateSummary(printsOf(live), 40, positionOf(HISTORY, 30))).toEqual({ kind: 'found', covered: 30 });
  });

  it('should find it inside the digested head too', () => {
    const live = reversed(HISTORY, 0, 29);
    expect(locateSummary(printsOf(live), 40, positionOf(HISTORY, 30))).toEqual({ kind: 'found', covered: 30 });
  });

  it('should look the kept message up by fingerprint after a reorder', () => {
    // Kept at 20 when the summary was made; the reorder 18..30 moves it to 27.
    const live = reversed(HISTORY, 18, 30);
    expect(live[27]).toBe('f20');
    expect(locateSummary(printsOf(live), 40, positionOf(HISTORY, 30, 20))).toEqual({
      kind: 'found',
      covered: 30,
      keptAt: 27,
    });
  });

  it('should apply a summary at the covered prefix when its kept message moved past it, and send the message after', () => {
    // The kept f28 moves behind the watermark, swapped with the uncovered f30: [0, 28) is all covered, and the
    // kept message comes after it with the rest (the forty-ninth trial: another turn's message came before it).
    const live = HISTORY.map((p, i) => (i === 28 ? 'f30' : i === 30 ? 'f28' : p));
    expect(locateSummary(printsOf(live), 40, positionOf(HISTORY, 30, 28))).toEqual({ kind: 'found', covered: 28 });
  });

  it('should find the covered prefix when a content of the head has the fingerprint of one left out of it', () => {
    // f2 and f29 are the same content (an identical tool call); another turn's message comes in before f29.
    const history = HISTORY.map((p, i) => (i === 29 ? 'f2' : p));
    const live = [...history.slice(0, 29), 'another', ...history.slice(29)];
    expect(locateSummary(printsOf(live), 41, positionOf(history, 30))).toEqual({ kind: 'found', covered: 29 });
  });

  it('should not move a summary over contents it never read, nor apply it where its anchor pair repeats', () => {
    // Another turn's message came in deep in the head: the covered contents are no prefix, the anchor is at 31.
    const live = [...HISTORY.slice(0, 3), 'another', ...HISTORY.slice(3)];
    expect(locateSummary(printsOf(live), 41, positionOf(HISTORY, 30))).toMatchObject({ kind: 'missing' });
    // The pair before its watermark also sits earlier (the same poll and answer twice): found there, it would
    // strip the other turn's message and more (review 45).
    const polled = HISTORY.map((p, i) => (i === 11 ? 'f28' : i === 12 ? 'f29' : p));
    const pollLive = [...polled.slice(0, 3), 'another', ...polled.slice(3)];
    expect(locateSummary(printsOf(pollLive), 41, positionOf(polled, 30))).toMatchObject({ kind: 'missing' });
    // A mask may move (masking the message is no loss); a summary record of an older version too (nothing tells).
    const { contents, anchor } = positionOf(HISTORY, 30);
    expect(locateWatermark(printsOf(live), 41, 30, anchor, contents)).toEqual({ kind: 'moved', covered: 31 });
    expect(locateSummary(printsOf(live), 41, { covered: 30, anchor })).toEqual({ kind: 'found', covered: 31 });
    // Contents gone from before it: what is left cannot be told from contents replaced, so it is not applied.
    const rewound = HISTORY.filter((_, i) => i !== 3);
    expect(locateSummary(printsOf(rewound), 39, positionOf(HISTORY, 30))).toMatchObject({ kind: 'missing' });
  });

  it('should stop before the first uncovered content a reorder across the watermark brought forward', () => {
    // The run 26..34 crosses the watermark 30: f33..f30 (not covered) now come first, f29..f26 after them.
    const live = reversed(HISTORY, 26, 34);
    expect(live.slice(26, 34)).toEqual(['f33', 'f32', 'f31', 'f30', 'f29', 'f28', 'f27', 'f26']);
    expect(locateSummary(printsOf(live), 40, positionOf(HISTORY, 30))).toEqual({ kind: 'found', covered: 26 });
  });

  it('should send a kept message left right before the covered prefix as the first content after it', () => {
    // Kept at 28; the uncovered f30 swaps with the covered f29: the prefix ends at 29, just after the kept message.
    const live = HISTORY.map((p, i) => (i === 29 ? 'f30' : i === 30 ? 'f29' : p));
    expect(locateSummary(printsOf(live), 40, positionOf(HISTORY, 30, 28))).toEqual({ kind: 'found', covered: 28 });
  });

  it('should behave as before for a record without its covered contents (written by an older version)', () => {
    const live = reversed(HISTORY, 24, 30);
    const { contents: _, ...older } = positionOf(HISTORY, 30);
    expect(locateSummary(printsOf(live), 40, older)).toMatchObject({ kind: 'missing' });
    expect(locateSummary(printsOf(HISTORY), 40, older)).toEqual({ kind: 'found', covered: 30 });
  });

  it('should not strip an uncovered content a reorder swapped in while the anchor kept its place', () => {
    // The covered f27 and the uncovered f31 trade places; f28|f29 still sit at 28, 29.
    const live = HISTORY.map((p, i) => (i === 27 ? 'f31' : i === 31 ? 'f27' : p));
    expect(locateSummary(printsOf(live), 40, positionOf(HISTORY, 30))).toEqual({ kind: 'found', covered: 27 });
  });

  it('should keep an anchor in place when a tail content changed but did not move past the watermark', () => {
    // PostgreSQL's jsonb reorders a reloaded tool result's keys: its fingerprint changes, nothing moved.
    const live = HISTORY.map((p, i) => (i === 27 ? 'f27-reloaded' : p));
    expect(locateSummary(printsOf(live), 40, positionOf(HISTORY, 30))).toEqual({ kind: 'found', covered: 30 });
  });

  it('should not apply it when a covered content was replaced', () => {
    const live = HISTORY.map((p, i) => (i === 3 ? 'edited' : p));
    const position = { ...positionOf(HISTORY, 30), anchor: 'gone|gone' };
    expect(locateSummary(printsOf(live), 40, position)).toMatchObject({ kind: 'missing' });
  });
});

/** Distinct fingerprints, long enough for a watermark with a run around it. */
const histories = fc.uniqueArray(
  fc.string({ minLength: 1, maxLength: 6 }).map((text) => `p:${text}`),
  { minLength: 4, maxLength: 60 },
);

/** A permutation of `[from, to)` of `prints`, from a shuffle key per content. */
function permuted(prints: readonly string[], from: number, to: number, keys: readonly number[]): string[] {
  const run = prints.slice(from, to).map((print, i) => ({ print, key: keys[i % keys.length] ?? 0 }));
  run.sort((a, b) => a.key - b.key);
  return [...prints.slice(0, from), ...run.map((entry) => entry.print), ...prints.slice(to)];
}

describe('laws of a reordered watermark', () => {
  const keys = fc.array(fc.nat(1000), { minLength: 1, maxLength: 40 });

  it('should find a summary at its watermark after any reorder inside what it covers', () => {
    fc.assert(
      fc.property(histories, fc.nat(), fc.nat(), fc.nat(), keys, (prints, a, b, c, shuffle) => {
        const covered = 1 + (a % prints.length);
        const from = b % covered;
        const to = from + 1 + (c % (covered - from));
        const live = permuted(prints, from, to, shuffle);
        expect(locateSummary(printsOf(live), live.length, positionOf(prints, covered))).toEqual({
          kind: 'found',
          covered,
        });
      }),
      PROPERTY_RUNS,
    );
  });

  it('should strip only covered contents, as many as it can, after a reorder across the watermark', () => {
    fc.assert(
      fc.property(histories, fc.nat(), fc.nat(), fc.nat(), keys, (prints, a, b, c, shuffle) => {
        const covered = 1 + (a % (prints.length - 1));
        // A run that starts within the tail before the watermark and ends after it.
        const from = Math.max(0, covered - 1 - (b % COVERED_TAIL));
        const to = covered + 1 + (c % (prints.length - covered));
        const live = permuted(prints, from, to, shuffle);
        const match = locateWatermark(
          printsOf(live),
          live.length,
          covered,
          anchorAt(printsOf(prints), covered),
          coveredContentsAt(printsOf(prints), covered),
        );
        const isCovered = new Set(prints.slice(0, covered));
        let safe = 0;
        while (safe < covered && isCovered.has(live[safe] ?? '')) safe++;
        // An anchor in place is taken only with the covered tail in place: then nothing uncovered is before it.
        if (match.kind === 'exact') expect(safe).toBe(covered);
        else if (safe >= 1) expect(match).toEqual({ kind: 'reordered', covered: safe });
        else expect(match.kind).not.toBe('reordered');
      }),
      PROPERTY_RUNS,
    );
  });
});
