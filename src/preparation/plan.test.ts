import { describe, expect, it } from 'vitest';
import {
  modelText,
  summaryRecord,
  testPolicy,
  toolExchange,
  usageRecord,
  userText,
} from '../../test/support/builders.js';
import { viewSource } from '../../test/support/guard-input.js';
import { planCompaction } from '../budget/compaction-plan.js';
import { anchorAt } from '../state/watermark.js';
import { chooseSplit } from '../split/choose-split.js';
import { planPreparation, preparationMark, type PreparationInput } from './plan.js';
import { summaryIdentity } from './prepared-record.js';
import { checkPrepared, PREPARED_APPLIED, type PreparedHandle } from './prepared-summary.js';

// Four finished turns of 1,000 tokens each, then the current request.
const CONTENTS = [
  userText('first'),
  modelText('first answer'),
  userText('second'),
  modelText('second answer'),
  userText('third'),
  modelText('third answer'),
  userText('fourth'),
  modelText('fourth answer'),
  userText('current'),
];
const TOKENS = [500, 500, 500, 500, 500, 500, 500, 500, 50];
const FINGERPRINTS = CONTENTS.map((_, index) => `f${index}`);
const THRESHOLD = 10_000;
const PLAN = planCompaction({
  threshold: THRESHOLD,
  correction: 1,
  fixedTokens: 0,
  inFlightTokens: 50,
  summaryMaxTokens: 4_096,
  compactTargetRatio: 0.5,
  summarizerWindow: 100_000,
  summarizerInputRatio: 0.8,
});
const INPUT: PreparationInput = {
  policy: testPolicy({ maskKeepRecent: 0, prepareTurnsAhead: 2 }),
  usage: usageRecord({ averageTurnTokens: 1_000 }),
  canSummarize: true,
  threshold: THRESHOLD,
  calibrated: 8_050,
  factor: 1,
  plan: () => PLAN,
  source: viewSource(CONTENTS, TOKENS),
  view: { view: CONTENTS.slice(), viewTokens: TOKENS.slice() },
  coverage: { covered: 0 },
  maskedUpTo: 0,
  previous: undefined,
  mask: undefined,
  fixedTokens: 0,
  summaryTokens: 0,
  fingerprints: FINGERPRINTS,
  now: 1,
};

describe('preparationMark', () => {
  it('should lie prepareTurnsAhead average turns below the threshold', () => {
    expect(
      preparationMark(testPolicy({ prepareTurnsAhead: 2 }), usageRecord({ averageTurnTokens: 1_500 }), THRESHOLD),
    ).toBe(THRESHOLD - 3_000);
  });

  it('should be unknown until a turn was measured, when turned off, and for the sliding window', () => {
    expect(preparationMark(testPolicy(), usageRecord(), THRESHOLD)).toBeUndefined();
    expect(preparationMark(testPolicy({ prepareTurnsAhead: 0 }), INPUT.usage, THRESHOLD)).toBeUndefined();
    expect(preparationMark(testPolicy({ strategy: 'sliding-window' }), INPUT.usage, THRESHOLD)).toBeUndefined();
  });
});

describe('planPreparation', () => {
  it('should prepare nothing below the mark, nor at the threshold (the compaction itself is due there)', () => {
    expect(planPreparation({ ...INPUT, calibrated: 7_999 })).toBeUndefined();
    expect(planPreparation({ ...INPUT, calibrated: THRESHOLD })).toBeUndefined();
  });

  it('should prepare nothing without a summarizer: the fallback costs no wait', () => {
    expect(planPreparation({ ...INPUT, canSummarize: false })).toBeUndefined();
  });

  it('should prepare nothing more once a prepared summary of the session fell short', () => {
    expect(planPreparation(INPUT)).toBeDefined();
    const usage = usageRecord({ averageTurnTokens: 1_000, preparedFellShort: true });
    expect(planPreparation({ ...INPUT, usage })).toBeUndefined();
  });

  it('should cover the finished turns, keeping the in-flight request verbatim', () => {
    const prepared = planPreparation(INPUT);
    expect(prepared?.split).toEqual({ coverage: { covered: 8, keptAt: undefined }, toCover: [0, 1, 2, 3, 4, 5, 6, 7] });
    expect(prepared?.watermark).toEqual({
      covered: 8,
      anchor: anchorAt((index) => FINGERPRINTS[index], 8),
      kept: undefined,
      contents: { digest: expect.any(String) as string, tail: FINGERPRINTS.slice(0, 8) },
    });
  });

  describe('in a long tool-using turn', () => {
    const [call, result] = toolExchange('fetch_logs', {}, { logs: 'x'.repeat(600) });
    const contents = [
      userText('first'),
      modelText('first answer'),
      userText('current'),
      ...[1, 2, 3, 4].flatMap(() => [call, result]),
    ];
    const tokens = [1_800, 1_800, 50, 20, 300, 20, 300, 20, 300, 20, 300];
    const fingerprints = contents.map((_, index) => `t${index}`);
    const input: PreparationInput = {
      ...INPUT,
      source: { ...INPUT.source, contents, tokens },
      view: { view: contents.slice(), viewTokens: tokens.slice() },
      fingerprints,
      calibrated: 9_600,
    };
    const tailFrom = (covered: number | undefined): number =>
      tokens.slice(covered ?? 0).reduce((sum, each) => sum + each, 0);

    it('should leave a tail that, grown by what is expected before the threshold, fits its tail budget', () => {
      const asAtThreshold = chooseSplit({
        contents,
        viewTokens: tokens,
        coverage: { covered: 0 },
        reason: 'threshold',
        heldBack: false,
        masking: undefined,
        hasSummary: false,
        summaryCap: PLAN.summaryCap,
        tailBudget: PLAN.tailBudget,
        keepFrom: undefined,
      });
      const prepared = planPreparation(input);
      expect(prepared?.split.coverage.keptAt).toBe(2);
      expect(prepared?.split.coverage.covered).toBeGreaterThan(asAtThreshold?.coverage.covered ?? 0);
      expect(tailFrom(prepared?.split.coverage.covered) + (THRESHOLD - input.calibrated)).toBeLessThanOrEqual(
        PLAN.tailBudget,
      );
    });

    it('should prepare nothing when masking the tool results alone will reach the target', () => {
      // Large tool results, small finished turns: placeholders bring the contents under the target.
      const heavy = [500, 500, 50, 20, 1_000, 20, 1_000, 20, 1_000, 20, 1_000];
      const masking: PreparationInput = {
        ...input,
        source: { ...input.source, tokens: heavy },
        view: { view: contents.slice(), viewTokens: heavy.slice() },
        policy: testPolicy({ maskKeepRecent: 1, prepareTurnsAhead: 2 }),
      };
      expect(planPreparation(masking)).toBeUndefined();
      expect(
        planPreparation({ ...masking, policy: testPolicy({ maskKeepRecent: 0, prepareTurnsAhead: 2 }) }),
      ).toBeDefined();
    });

    it("should expect one step's growth before the threshold inside a loop, not an average turn's", () => {
      // The fifty-fourth outside trial: a first turn of an 18-call loop made the average turn ~10k tokens, so masking
      // looked short by that much; the summary prepared was never used (masking alone made room at the threshold).
      const heavy = [3_000, 3_000, 50, 20, 1_000, 20, 1_000, 20, 1_000, 20, 1_000];
      const looping: PreparationInput = {
        ...input,
        source: { ...input.source, tokens: heavy },
        view: { view: contents.slice(), viewTokens: heavy.slice() },
        policy: testPolicy({ maskKeepRecent: 1, prepareTurnsAhead: 2 }),
        usage: usageRecord({ averageTurnTokens: 5_000 }),
        // A tail budget that leaves room for the turn's growth, so that only masking's rule decides.
        plan: () => ({ ...PLAN, tailBudget: 20_000 }),
      };
      expect(planPreparation(looping)).toBeDefined();
      expect(planPreparation({ ...looping, stepTokens: 300 })).toBeUndefined();
      // A step as large as the rest of the turn is still expected whole.
      expect(planPreparation({ ...looping, stepTokens: 10_000 })).toBeDefined();
    });
  });
});

describe('checkPrepared', () => {
  const fingerprintAt = (index: number): string | undefined => FINGERPRINTS[index];
  const previous = summaryRecord({ covered: 2, anchor: anchorAt(fingerprintAt, 2) });
  const handle: PreparedHandle = {
    previous: summaryIdentity(previous),
    watermark: { covered: 6, anchor: anchorAt(fingerprintAt, 6) },
    take: () => Promise.resolve({ prepared: undefined, waitedMs: 0 }),
  };

  it('should accept it when it extends the applying summary and its covered contents are unchanged', () => {
    expect(checkPrepared(handle, { ...previous }, fingerprintAt, CONTENTS.length)).toEqual({
      valid: true,
      covered: 6,
      keptAt: undefined,
    });
  });

  it('should refuse it when the applying summary changed under it (another replica compacted)', () => {
    const other = { ...previous, text: 'Another summary', createdAt: previous.createdAt + 1 };
    expect(checkPrepared(handle, other, fingerprintAt, CONTENTS.length).valid).toBe(false);
    // Made at the same moment, covering the same contents: told apart by the text alone.
    expect(checkPrepared(handle, { ...previous, text: 'Another summary' }, fingerprintAt, CONTENTS.length).valid).toBe(
      false,
    );
    expect(checkPrepared(handle, undefined, fingerprintAt, CONTENTS.length).valid).toBe(false);
  });

  it('should say it is the stored summary already when another call applied it, and not otherwise', () => {
    const applied = { ...previous, text: 'The prepared summary', covered: 6, anchor: anchorAt(fingerprintAt, 6) };
    expect(checkPrepared(handle, applied, fingerprintAt, CONTENTS.length)).toEqual({
      valid: false,
      reason: PREPARED_APPLIED,
    });
    const other = { ...previous, text: 'Another summary', createdAt: previous.createdAt + 1 };
    expect(checkPrepared(handle, other, fingerprintAt, CONTENTS.length)).not.toMatchObject({
      reason: PREPARED_APPLIED,
    });
  });

  it('should refuse it when the contents it covers changed (a rewind, an edited event)', () => {
    const edited = (index: number): string | undefined => (index === 5 ? 'edited' : fingerprintAt(index));
    expect(checkPrepared(handle, previous, edited, CONTENTS.length).valid).toBe(false);
    expect(checkPrepared(handle, previous, fingerprintAt, 4).valid).toBe(false);
  });
});
