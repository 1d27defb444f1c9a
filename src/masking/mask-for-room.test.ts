import { describe, expect, it } from 'vitest';
import { functionCall, functionResponse, modelText, userText } from '../../test/support/builders.js';
import { viewSource } from '../../test/support/guard-input.js';
import { characterTokenizer } from '../../test/support/tokenizers.js';
import { estimateContentTokens } from '../estimate/estimate-content.js';
import { anchorAt } from '../state/watermark.js';
import { maskForRoom, type MaskForRoomInput } from './mask-for-room.js';
import { viewEstimate } from '../split/coverage.js';

// Three tool exchanges with large results, then the current request.
const CONTENTS = [
  userText('fetch everything'),
  ...[1, 2, 3].flatMap((n) => [
    functionCall(`fetch_${n}`),
    functionResponse(`fetch_${n}`, { logs: `line ${n}\n`.repeat(300) }),
  ]),
  userText('and now?'),
];
const TOKENS = CONTENTS.map((content) => estimateContentTokens(content, characterTokenizer));
const FINGERPRINTS = CONTENTS.map((_, index) => `f${index}`);
const INPUT: MaskForRoomInput = {
  source: viewSource(CONTENTS, TOKENS),
  coverage: { covered: 0 },
  maskedUpTo: 0,
  reason: 'threshold',
  manual: false,
  keepRecent: 1,
  fixedTokens: 100,
  summaryTokens: 0,
  target: 1_000_000,
  fingerprints: FINGERPRINTS,
  previous: { upTo: 1, anchor: 'x', maskings: 2, createdAt: 0 },
  now: 42,
};

describe('maskForRoom', () => {
  it('should mask old tool results, keep the recent ones, and anchor the new watermark', () => {
    const step = maskForRoom(INPUT);
    expect(step).toBeDefined();
    if (!step) return;
    expect(step.upTo).toBeGreaterThan(1);
    expect(step.view[step.view.length - 1]).toBe(CONTENTS[CONTENTS.length - 1]);
    expect(step.record).toEqual({
      upTo: step.upTo,
      anchor: anchorAt((index) => FINGERPRINTS[index], step.upTo),
      // Every masked content by fingerprint (fewer than the tail holds), so a reorder finds it again.
      contents: { digest: expect.any(String) as string, tail: FINGERPRINTS.slice(0, step.upTo) },
      maskings: 3,
      createdAt: 42,
    });
    expect(step.estimate).toBe(viewEstimate(100, 0, step.viewTokens, { covered: 0 }));
    expect(step.estimate).toBeLessThan(viewEstimate(100, 0, TOKENS, { covered: 0 }));
    expect(step.enough).toBe(true);
  });

  it('should say when masking alone does not reach the target', () => {
    expect(maskForRoom({ ...INPUT, target: 10 })?.enough).toBe(false);
  });

  it('should not mask on the sliding window schedule, for a requested compaction, or when masking is off', () => {
    expect(maskForRoom({ ...INPUT, reason: 'schedule' })).toBeUndefined();
    expect(maskForRoom({ ...INPUT, manual: true })).toBeUndefined();
    expect(maskForRoom({ ...INPUT, keepRecent: 0 })).toBeUndefined();
  });
});

describe('maskForRoom: where the masking starts', () => {
  // The oldest result starts under the cacheable minimum, a long answer follows it, and the second
  // result starts well past the minimum: masking the second alone meets the target and costs less.
  const contents = [
    userText('u'.repeat(100)),
    functionCall('fetch_1'),
    functionResponse('fetch_1', { logs: 'a'.repeat(1_500) }),
    modelText('m'.repeat(3_000)),
    userText('u'.repeat(100)),
    functionCall('fetch_2'),
    functionResponse('fetch_2', { logs: 'b'.repeat(1_500) }),
    modelText('m'.repeat(100)),
    userText('u'.repeat(100)),
  ];
  const tokens = contents.map((content) => estimateContentTokens(content, characterTokenizer));
  const fingerprints = contents.map((_, index) => `g${index}`);
  const input: MaskForRoomInput = {
    ...INPUT,
    source: viewSource(contents, tokens),
    fingerprints,
    fixedTokens: 500,
    target: 6_000,
    previous: undefined,
  };
  const terms = { threshold: 7_500, growthPerCall: 100, cachedPriceRatio: 0.1, outputPriceRatio: 4 };

  it('should keep the head before the start as it is and record the start', () => {
    const step = maskForRoom(input, { factor: 1, terms });
    expect(step?.start).toBe(6);
    expect(step?.record.start).toBe(6);
    expect(step?.view.slice(0, 6)).toEqual(contents.slice(0, 6));
    expect(step?.view[6]).not.toEqual(contents[6]);
  });

  it("should mask from the summary's watermark without a price to weigh, as before", () => {
    const step = maskForRoom(input);
    expect(step?.start).toBe(0);
    expect(step?.record.start).toBeUndefined();
    expect(step?.view[2]).not.toEqual(contents[2]);
  });
});
