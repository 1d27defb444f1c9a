import { describe, expect, it } from 'vitest';
import { usageRecord } from '../../test/support/builders.js';
import { futileAfter, idleUsage, nextUsage, type FutileInput, type UsageInput } from './next-usage.js';

const CONDITIONS = { window: 10_000, fixedTokens: 500, correction: 1.5, contentTokens: 5_300 };
const FUTILE: FutileInput = {
  previous: undefined,
  reason: 'threshold',
  heldBack: false,
  conditions: CONDITIONS,
  threshold: 8_000,
  safetyLine: 7_000,
  reducedCalibrated: 8_100,
  viewEstimate: 5_400,
  fixedTokens: 500,
};

describe('futileAfter', () => {
  it('should remember an attempt for room that stayed over its target, with what was sent', () => {
    expect(futileAfter(FUTILE)).toEqual({ ...CONDITIONS, contentTokens: 4_900 });
  });

  it('should clear the record once an attempt reaches its target', () => {
    expect(futileAfter({ ...FUTILE, previous: CONDITIONS, reducedCalibrated: 8_000 })).toBeUndefined();
  });

  it('should hold the safety ratio to just under its line', () => {
    expect(futileAfter({ ...FUTILE, reason: 'safety-ratio', reducedCalibrated: 7_000 })).toBeDefined();
    expect(futileAfter({ ...FUTILE, reason: 'safety-ratio', reducedCalibrated: 6_999 })).toBeUndefined();
  });

  it('should leave the record alone when held back or on schedule', () => {
    expect(futileAfter({ ...FUTILE, previous: CONDITIONS, heldBack: true, reducedCalibrated: 0 })).toBe(CONDITIONS);
    expect(futileAfter({ ...FUTILE, reason: 'schedule' })).toBeUndefined();
  });
});

describe('idleUsage', () => {
  it('should count the call, record the estimate and clear a forced compaction', () => {
    const usage = idleUsage(usageRecord({ modelCalls: 4, forceCompaction: true }), 3_000, 40, 4_500);
    expect(usage).toMatchObject({
      modelCalls: 5,
      sentEstimate: 3_000,
      sentFraming: 40,
      lastCalibrated: 4_500,
      forceCompaction: false,
    });
  });

  it('should forget the message it last cut, so that a later cut of the same size is said again', () => {
    expect(idleUsage(usageRecord({ messageCutFrom: 9_000 }), 3_000, 40, 4_500).messageCutFrom).toBeUndefined();
  });
});

describe('nextUsage', () => {
  const usage = usageRecord({
    modelCalls: 4,
    realPromptTokens: 6_000,
    lastEstimate: 4_000,
    lastFraming: 30,
    learnedCorrection: 1.2,
    compactions: 1,
    maskings: 2,
  });
  const input: UsageInput = {
    usage,
    compacted: false,
    masked: false,
    discarded: false,
    isCalibrated: true,
    factor: 1.5,
    sentEstimate: 3_000,
    sentFraming: 40,
    sentCalibrated: 4_500,
    overLimit: false,
    futileCompaction: undefined,
    overLimitCause: undefined,
  };

  it('should keep, once set, that a prepared summary fell short', () => {
    expect(nextUsage(input).preparedFellShort).toBeUndefined();
    const fell = nextUsage({ ...input, compacted: true, preparedFellShort: true });
    expect(fell.preparedFellShort).toBe(true);
    expect(nextUsage({ ...input, usage: fell }).preparedFellShort).toBe(true);
  });
  it('should keep the calibration pair when nothing was compacted or masked', () => {
    expect(nextUsage(input)).toMatchObject({
      modelCalls: 5,
      realPromptTokens: 6_000,
      lastEstimate: 4_000,
      lastFraming: 30,
      sentEstimate: 3_000,
      sentFraming: 40,
      compactions: 1,
      maskings: 2,
    });
  });

  it('should clear the pair after a compaction and keep the factor it taught', () => {
    const next = nextUsage({ ...input, compacted: true });
    expect(next).toMatchObject({
      realPromptTokens: undefined,
      lastEstimate: undefined,
      lastFraming: undefined,
      learnedCorrection: 1.5,
      compactions: 2,
      maskings: 2,
    });
  });

  it('should keep the learned prior when the factor was not calibrated', () => {
    expect(nextUsage({ ...input, masked: true, isCalibrated: false })).toMatchObject({
      learnedCorrection: 1.2,
      maskings: 3,
      compactions: 1,
    });
  });

  it('should count discarded and over-limit calls', () => {
    expect(nextUsage({ ...input, discarded: true, overLimit: true, overLimitCause: '8000:9000' })).toMatchObject({
      discardedCompactions: 1,
      overLimitCalls: 1,
      overLimitCause: '8000:9000',
    });
  });

  it("should take a summary's correction only where the agent has no count of its own, and each later summary's", () => {
    const uncounted = usageRecord({ modelCalls: 4, compactions: 1, maskings: 2 });
    const first = nextUsage({
      ...input,
      usage: uncounted,
      compacted: true,
      isCalibrated: false,
      summaryCorrection: 1.3,
    });
    expect(first).toMatchObject({ learnedCorrection: 1.3, correctionFromSummary: true });
    const second = nextUsage({
      ...input,
      usage: first,
      compacted: true,
      isCalibrated: true,
      factor: 1.3,
      summaryCorrection: 1.1,
    });
    expect(second).toMatchObject({ learnedCorrection: 1.1, correctionFromSummary: true });
    // The agent's own count (a pair) wins, and a correction it taught is never replaced by a summary's.
    const counted = nextUsage({ ...input, compacted: true, summaryCorrection: 1.1 });
    expect(counted).toMatchObject({ learnedCorrection: 1.5, correctionFromSummary: undefined });
    const own = usageRecord({ modelCalls: 4, learnedCorrection: 1.4 });
    expect(nextUsage({ ...input, usage: own, compacted: true, factor: 1.4, summaryCorrection: 1.1 })).toMatchObject({
      learnedCorrection: 1.4,
    });
  });
});
