import { describe, expect, it } from 'vitest';
import { summaryRecord, testPolicy, usageRecord, userText } from '../../test/support/builders.js';
import { characterTokenizer } from '../../test/support/tokenizers.js';
import { summaryContent } from '../summary/inject-summary.js';
import { estimateContentTokens } from '../estimate/estimate-content.js';
import { measureRequest, type MeasureInput } from './measure-request.js';

const VIEW = [userText('old'), userText('current')];
// Real count 6,000 for an estimate of 4,000: factor 1.5, calibrated.
const INPUT: MeasureInput = {
  summary: undefined,
  coverage: { covered: 0 },
  view: VIEW,
  viewTokens: [1_000, 500],
  fixedTokens: 200,
  viewOptions: {},
  tokenizer: characterTokenizer,
  usage: usageRecord({ realPromptTokens: 6_000, lastEstimate: 4_000, learnedCorrection: 1.5 }),
  policy: testPolicy(),
  window: 10_000,
};

describe('measureRequest', () => {
  it('should add the fixed part to the contents and calibrate the sum', () => {
    const measure = measureRequest(INPUT);
    expect(measure).toMatchObject({ summaryTokens: 0, estimate: 1_700, factor: 1.5, isCalibrated: true });
    expect(measure.budget.threshold).toBe(8_000);
  });

  it('should count the summary as injected and only the contents it leaves', () => {
    const summary = summaryRecord({ covered: 1, anchor: 'a' });
    const measure = measureRequest({ ...INPUT, summary, coverage: { covered: 1 } });
    const summaryTokens = estimateContentTokens(summaryContent(summary, [VIEW[1] ?? {}]), characterTokenizer);
    expect(measure.summaryTokens).toBe(summaryTokens);
    expect(measure.estimate).toBe(200 + summaryTokens + 500);
  });

  it('should reserve the request maxOutputTokens when larger than the policy reserve', () => {
    expect(measureRequest({ ...INPUT, maxOutputTokens: 5_000 }).budget.threshold).toBe(5_000);
  });
});
