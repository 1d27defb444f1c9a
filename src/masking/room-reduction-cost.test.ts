import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  callsUntilNext,
  costPerCall,
  deeperPays,
  growthPerCall,
  type ReductionCandidate,
  type ReductionTerms,
} from './room-reduction-cost.js';

const terms = (overrides: Partial<ReductionTerms> = {}): ReductionTerms => ({
  threshold: 170_000,
  growthPerCall: 5_000,
  cachedPriceRatio: 0.1,
  outputPriceRatio: 8,
  ...overrides,
});
const masking = (overrides: Partial<ReductionCandidate> = {}): ReductionCandidate => ({
  after: 168_000,
  rewritten: 20_000,
  summarizerInput: 0,
  summaryOutput: 0,
  ...overrides,
});
const summary = (overrides: Partial<ReductionCandidate> = {}): ReductionCandidate => ({
  after: 85_000,
  rewritten: 80_000,
  summarizerInput: 100_000,
  summaryOutput: 2_000,
  ...overrides,
});

describe('costPerCall', () => {
  it("should price the summary's output at the model's output price", () => {
    // 2,000 output tokens at 8 or at 40 times the input price, spread over the same 17 calls.
    const dearer = costPerCall(summary(), terms({ outputPriceRatio: 40 })) - costPerCall(summary(), terms());
    expect(dearer).toBeCloseTo((32 * 2_000) / 17, 6);
  });

  it('should spread the rewrite and the summarizer call over the calls until the threshold', () => {
    // 17 calls from 85,000 to 170,000 at 5,000 a call; 0.9 × 80,000 + 100,000 + 8 × 2,000 = 188,000 once,
    // and a mean prefix of 127,500 read at 0.1.
    expect(callsUntilNext(85_000, terms())).toBe(17);
    expect(costPerCall(summary(), terms())).toBeCloseTo(188_000 / 17 + 12_750, 6);
  });

  it('should charge a masking that leaves less than a call of room its whole rewrite on one call', () => {
    expect(callsUntilNext(168_000, terms())).toBe(1);
    expect(costPerCall(masking(), terms())).toBeCloseTo(0.9 * 20_000 + 0.1 * 169_000, 6);
  });

  it("should read a summary request's cached part at the cached price (a continuation of the agent's request)", () => {
    // The same 100,000 input tokens, 95,000 of them served from the agent's cached prefix: 0.9 × 95,000 less, once.
    const continued = summary({ summarizerInput: 5_000, summarizerCachedInput: 95_000 });
    const saved = costPerCall(summary(), terms()) - costPerCall(continued, terms());
    expect(saved).toBeCloseTo((0.9 * 95_000) / 17, 6);
  });

  it('should break no cache for a request under the cacheable minimum, which is read whole', () => {
    const small = terms({ threshold: 3_000, growthPerCall: 100 });
    expect(costPerCall(masking({ after: 1_000, rewritten: 900 }), small)).toBeCloseTo(2_000, 6);
  });
});

describe('deeperPays', () => {
  it('should summarize now on a large window when the masking alone would leave one call of room', () => {
    expect(deeperPays(masking(), summary(), terms())).toBe(true);
  });

  it('should keep the masking alone when it leaves many calls of room or the summary is dear', () => {
    expect(deeperPays(masking({ after: 120_000 }), summary(), terms())).toBe(false);
    // An 8k window: the summarizer call costs more than the masking's rewrite saves.
    const small = terms({ threshold: 6_554, growthPerCall: 500 });
    const smallMasking = masking({ after: 5_900, rewritten: 1_000 });
    const smallSummary = summary({ after: 4_000, rewritten: 2_500, summarizerInput: 4_700, summaryOutput: 500 });
    expect(deeperPays(smallMasking, smallSummary, small)).toBe(false);
  });

  it('should never choose a summary that costs more per call, or lands no lower, than the masking alone', () => {
    const tokens = fc.integer({ min: 0, max: 200_000 });
    fc.assert(
      fc.property(
        tokens,
        tokens,
        tokens,
        tokens,
        tokens,
        tokens,
        fc.integer({ min: 1, max: 20_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (shallowAfter, shallowRewritten, deepAfter, deepRewritten, input, output, growth, ratio) => {
          const t = terms({ threshold: 200_000, growthPerCall: growth, cachedPriceRatio: ratio });
          const shallow = masking({ after: shallowAfter, rewritten: shallowRewritten });
          const deep = summary({
            after: deepAfter,
            rewritten: deepRewritten,
            summarizerInput: input,
            summaryOutput: output,
          });
          if (!deeperPays(shallow, deep, t)) return;
          expect(deep.after).toBeLessThan(shallow.after);
          expect(costPerCall(deep, t)).toBeLessThan(costPerCall(shallow, t));
        },
      ),
    );
  });
});

describe('growthPerCall', () => {
  it("should take a turn's average growth over the calls a turn makes", () => {
    expect(
      growthPerCall({ averageTurnTokens: 6_000, modelCalls: 30, invocations: 10, inFlightTokens: 0, inFlightSteps: 0 }),
    ).toBe(2_000);
  });

  it('should use what the in-flight turn added per step before any turn has completed', () => {
    expect(
      growthPerCall({
        averageTurnTokens: undefined,
        modelCalls: 12,
        invocations: 1,
        inFlightTokens: 6_000,
        inFlightSteps: 12,
      }),
    ).toBe(500);
    expect(
      growthPerCall({
        averageTurnTokens: undefined,
        modelCalls: 0,
        invocations: 0,
        inFlightTokens: 0,
        inFlightSteps: 0,
      }),
    ).toBe(0);
  });
});
