import { describe, expect, it } from 'vitest';
import { summaryRecord, usageRecord } from '../../test/support/builders.js';
import { guardInput } from '../../test/support/guard-input.js';
import type { Decision, GuardRequestInput } from './contract.js';
import { withStateChange } from './state-change.js';

const BUDGET = { window: 10_000, buffer: 2_000, threshold: 8_000, hardLimit: 9_500 };
const STORED = summaryRecord({ text: 'stored', covered: 2, anchor: 'a|b', createdAt: 1 });
const NEW = summaryRecord({ text: 'new', covered: 4, anchor: 'c|d', createdAt: 2 });

function input(fields: Partial<GuardRequestInput> = {}): GuardRequestInput {
  return guardInput({
    contents: [],
    usage: usageRecord({ modelCalls: 3, invocations: 2, lastInvocationId: 'turn-2' }),
    ...fields,
  });
}

function decision(fields: Partial<Decision> = {}): Decision {
  return {
    contents: undefined,
    usage: usageRecord({ modelCalls: 4, compactions: 1, invocations: 2, lastInvocationId: 'turn-2' }),
    budget: BUDGET,
    estimate: 3_000,
    calibrated: 4_000,
    shrunk: false,
    ...fields,
  };
}

describe('withStateChange', () => {
  describe('the summary to store', () => {
    it('should store the summary this call made', () => {
      // With the application's answers it has read (none here): pipeline/unseen-answer.ts.
      const result = withStateChange(input({ summary: STORED }), decision({ newSummary: NEW }));
      expect(result.state.summary).toEqual({ ...NEW, answers: [] });
      // The same object as the result's new summary, which the shell offers the calls queued behind this one.
      expect(result.state.summary).toBe(result.newSummary);
    });

    it('should write again a summary a queued call made, so this step stores it too', () => {
      const result = withStateChange(input({ summary: STORED, summaryShared: true }), decision());
      expect(result.state.summary).toBe(STORED);
    });

    it('should clear a stored summary that no longer applies', () => {
      expect(withStateChange(input(), decision({ summaryDiscarded: 'watermark missing' })).state.summary).toBeNull();
    });

    it("should write on ADK's view of a late answer only the stored records cut at its call", () => {
      const mask = { upTo: 3, anchor: 'e|f', maskings: 1, createdAt: 2 };
      for (const summaryHeld of ['cut at the function call', undefined]) {
        const made = decision({ summaryHeld, newSummary: NEW, mask, summaryDiscarded: 'watermark missing' });
        const result = withStateChange(input({ summary: STORED, lateResponseView: true }), made);
        expect(result.state.summary).toBeUndefined();
        expect(result.state.mask).toBeUndefined();
      }
      const cut = { summary: { ...STORED, covered: 1, lateAnswer: true as const }, mask: null };
      const made = decision({ newSummary: NEW, mask, cutAtCall: cut });
      const result = withStateChange(input({ summary: STORED, lateResponseView: true }), made);
      expect(result.state.summary).toBe(cut.summary);
      expect(result.state.mask).toBeNull();
      // Not on a view of the whole history: there the decision's own records are written.
      expect(withStateChange(input({ summary: STORED }), made).state).toMatchObject({ summary: NEW, mask });
    });

    it('should leave a stored summary that applies as it is', () => {
      expect(withStateChange(input({ summary: STORED }), decision()).state.summary).toBeUndefined();
    });
  });

  describe('the usage record', () => {
    it('should count a new turn, start its size, and keep the budget and the window source', () => {
      const result = withStateChange(input({ invocationId: 'turn-3', windowOrigin: 'learned' }), decision());
      expect(result.state.usage).toMatchObject({
        modelCalls: 4,
        invocations: 3,
        lastInvocationId: 'turn-3',
        turnStartCalibrated: 4_000,
        window: 10_000,
        threshold: 8_000,
        hardLimit: 9_500,
        windowSource: 'learned',
      });
    });

    it('should not count the same turn twice', () => {
      const result = withStateChange(input({ invocationId: 'turn-2' }), decision());
      expect(result.state.usage.invocations).toBe(2);
    });
  });

  it("should carry the call's own counts, the difference its decision made", () => {
    expect(withStateChange(input(), decision()).counts).toMatchObject({ modelCalls: 1, compactions: 1, maskings: 0 });
  });

  it("should clear the application's compaction request once served, and only then", () => {
    expect(withStateChange(input({ manual: true }), decision()).state.compactionRequestServed).toBe(true);
    expect(withStateChange(input(), decision()).state.compactionRequestServed).toBe(false);
  });
});
