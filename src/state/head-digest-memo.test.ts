import { describe, expect, it } from 'vitest';
import { digestOfSorted, HeadDigestMemo } from './head-digest-memo.js';

const fresh = (head: readonly string[]): string => digestOfSorted(head.slice().sort());
const prints = (from: number, to: number): string[] =>
  Array.from({ length: to - from }, (_, i) => `p${((from + i) * 7919) % 1000}.${from + i}`);

describe('HeadDigestMemo', () => {
  it('should digest a growing head as sorting it anew does, new prints put among the old, empty and repeated ones', () => {
    const memo = new HeadDigestMemo();
    let head: string[] = [];
    for (const added of [prints(0, 40), ['', 'p0.0', 'zz'], prints(40, 45), ['', 'a'], prints(45, 200)]) {
      head = [...head, ...added];
      expect(memo.digestOf(head.slice())).toBe(fresh(head));
    }
  });

  it('should take a head the measure snapshots since vouch for without comparing it, and compare one they do not', () => {
    const memo = new HeadDigestMemo();
    const first = prints(0, 30);
    expect(memo.digestOf(first, 1)).toBe(fresh(first));
    // Two calls whose snapshots kept the first 30 positions: the head read at the third is digested as it is.
    memo.follow({ generation: 2, previous: 1, unchangedBefore: 30 });
    memo.follow({ generation: 3, previous: 2, unchangedBefore: 31 });
    const grown = [...first, ...prints(30, 34)];
    expect(memo.digestOf(grown, 3)).toBe(fresh(grown));
    // A snapshot that changed position 5 (an edited history): the next head is compared, and sorted anew.
    memo.follow({ generation: 4, previous: 3, unchangedBefore: 5 });
    const edited = grown.map((print, i) => (i === 5 ? 'edited' : print));
    expect(memo.digestOf([...edited, 'new'], 4)).toBe(fresh([...edited, 'new']));
    // A snapshot not following the one the memo knows (a call that measured without it): compared as well.
    memo.follow({ generation: 9, previous: 7, unchangedBefore: 100 });
    const other = ['x', ...edited.slice(1), 'new', 'newer'];
    expect(memo.digestOf(other, 9)).toBe(fresh(other));
  });
});
