import { describe, expect, it } from 'vitest';
import { foreignContext, modelText, userText } from '../../test/support/builders.js';
import { MIN_SUMMARY_TOKENS, SUMMARY_FRAMING_TOKENS } from '../budget/compaction-plan.js';
import { chooseSplit, MIN_NEWLY_COVERED_TOKENS, minimumGain, type ChooseSplitInput } from './choose-split.js';

// Two finished turns of 1,000 tokens each, then the current request.
const CONTENTS = [
  userText('first'),
  modelText('first answer'),
  userText('second'),
  modelText('second answer'),
  userText('current'),
];
const INPUT: ChooseSplitInput = {
  contents: CONTENTS,
  viewTokens: [500, 500, 500, 500, 50],
  coverage: { covered: 0 },
  reason: 'threshold',
  heldBack: false,
  masking: undefined,
  hasSummary: false,
  summaryCap: 200,
  tailBudget: 100,
  keepFrom: undefined,
};

describe('minimumGain', () => {
  it('should ask a first summary for more than the smallest summary and its framing, a later one for a little new content', () => {
    expect(minimumGain(false, false, 200)).toBe(MIN_SUMMARY_TOKENS + SUMMARY_FRAMING_TOKENS);
    expect(minimumGain(false, true, 200)).toBe(MIN_NEWLY_COVERED_TOKENS);
  });

  it('should ask a summary after a masking to replace more than the summary itself', () => {
    expect(minimumGain(true, true, 200)).toBe(200 + SUMMARY_FRAMING_TOKENS);
  });
});

describe('chooseSplit', () => {
  it('should keep what another agent just handed over whole while it fits the room, whatever a thought after it', () => {
    // A LoopAgent's writer: its last draft, then the round's result (trial 61); a thought alone is no answer (review 54).
    const round = [
      userText('Write the report, one section a round.'),
      modelText('Draft 1.'),
      foreignContext('[researcher] tool `search` returned result: {"figure":"FIG-2"}'),
      foreignContext('[researcher] said: Fetched round 2.'),
      { role: 'model', parts: [{ text: 'Reading the round.', thought: true }] },
    ];
    const input = { ...INPUT, contents: round, viewTokens: [50, 300, 500, 10, 10], summaryCap: 100 };
    expect(chooseSplit(input)?.coverage.covered).toBe(3);
    expect(chooseSplit({ ...input, tailRoom: 600 })?.coverage).toEqual({ covered: 2, keptAt: 0 });
  });

  it('should cover the finished turns and keep the current request', () => {
    expect(chooseSplit(INPUT)).toEqual({ coverage: { covered: 4, keptAt: undefined }, toCover: [0, 1, 2, 3] });
  });

  it('should not summarize when held back as futile, or when masking was enough', () => {
    expect(chooseSplit({ ...INPUT, heldBack: true })).toBeUndefined();
    expect(chooseSplit({ ...INPUT, masking: { enough: true } })).toBeUndefined();
  });

  it('should not summarize what cannot pay for a summary', () => {
    expect(chooseSplit({ ...INPUT, viewTokens: [10, 10, 10, 10, 50] })).toBeUndefined();
  });

  it('should summarize little on the sliding window schedule, which compacts for structure', () => {
    const split = chooseSplit({ ...INPUT, viewTokens: [10, 10, 10, 10, 50], reason: 'schedule', keepFrom: 2 });
    expect(split?.coverage.covered).toBe(2);
  });
});
