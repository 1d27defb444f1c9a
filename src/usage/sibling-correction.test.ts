import { describe, expect, it } from 'vitest';
import { usageRecord } from '../../test/support/builders.js';
import { recordReportedUsage, rejectionOutcome } from './provider-feedback.js';
import { siblingCorrection, startsUncalibrated, withSiblingCorrection } from './sibling-correction.js';

describe('siblingCorrection', () => {
  const fresh = usageRecord();
  const reader = usageRecord({ modelCalls: 3, learnedCorrection: 1.2, correctionModel: 'gemini-2.5-flash' });

  it('should take the largest correction another agent learned for the same model', () => {
    const checker = usageRecord({ modelCalls: 1, learnedCorrection: 1.35, correctionModel: 'gemini-2.5-flash' });
    const other = usageRecord({ modelCalls: 1, learnedCorrection: 2, correctionModel: 'gemini-2.5-pro' });
    const found = siblingCorrection(fresh, 'models/Gemini-2.5-Flash', [
      ['reader', reader],
      ['checker', checker],
      ['pro', other],
    ]);
    expect(found).toEqual({ correction: 1.35, agentName: 'checker', model: 'gemini-2.5-flash' });
    expect(withSiblingCorrection(fresh, found!)).toMatchObject({
      learnedCorrection: 1.35,
      correctionModel: 'gemini-2.5-flash',
      modelCalls: 0,
    });
  });

  it('should find nothing for another model, a correction of unknown model, or no model', () => {
    expect(siblingCorrection(fresh, 'gemini-2.5-pro', [['reader', reader]])).toBeUndefined();
    const untagged = usageRecord({ modelCalls: 2, learnedCorrection: 1.2 });
    expect(siblingCorrection(fresh, 'gemini-2.5-flash', [['old', untagged]])).toBeUndefined();
    expect(siblingCorrection(fresh, undefined, [['reader', reader]])).toBeUndefined();
  });

  it('should leave an agent with a call, a correction or a count of its own, or on a retry, to its own', () => {
    for (const own of [
      usageRecord({ modelCalls: 1 }),
      usageRecord({ learnedCorrection: 1.1 }),
      usageRecord({ realPromptTokens: 900 }),
      usageRecord({ forceCompaction: true }),
    ]) {
      expect(startsUncalibrated(own)).toBe(false);
      expect(siblingCorrection(own, 'gemini-2.5-flash', [['reader', reader]])).toBeUndefined();
    }
    expect(startsUncalibrated(fresh)).toBe(true);
  });
});

describe('the model a correction is learned for', () => {
  it('should be recorded with a count reported and with a rejection that states one', () => {
    const sent = usageRecord({ sentEstimate: 1_000 });
    expect(recordReportedUsage(sent, { promptTokenCount: 1_200 }, 'models/gemini-2.5-flash')).toMatchObject({
      learnedCorrection: 1.2,
      correctionModel: 'gemini-2.5-flash',
    });
    // A count of an unnamed model takes the tag off: the correction is no longer known to be of the old model.
    const tagged = usageRecord({ sentEstimate: 1_000, correctionModel: 'gemini-2.5-pro' });
    expect(recordReportedUsage(tagged, { promptTokenCount: 1_100 }).correctionModel).toBeUndefined();
    const message = 'The input token count (1300) exceeds the maximum number of tokens allowed (1200).';
    expect(rejectionOutcome(sent, message, 'gemini-2.5-flash').usage).toMatchObject({
      learnedCorrection: 1.3,
      correctionModel: 'gemini-2.5-flash',
    });
  });
});
