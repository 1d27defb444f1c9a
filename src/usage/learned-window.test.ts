import { describe, expect, it } from 'vitest';
import { usageRecord } from '../../test/support/builders.js';
import { rejectionOutcome } from './provider-feedback.js';
import {
  acceptedByCall,
  acceptedIn,
  chooseWindow,
  decideWindow,
  learnedFromState,
  learnedWindowFor,
  originOf,
  plausibleWindow,
  recordAccepted,
  recordStatedWindow,
  windowFloor,
} from './learned-window.js';

describe('chooseWindow', () => {
  describe('without a learned maximum', () => {
    it('should keep the resolved window and name its origin', () => {
      expect(chooseWindow({ window: 1_048_576, source: 'catalogue', model: 'gemini-2.5-flash' }, undefined)).toEqual({
        window: 1_048_576,
        origin: 'registry',
      });
      expect(chooseWindow({ window: 128_000, source: 'default', model: 'x' }, undefined)).toEqual({
        window: 128_000,
        origin: 'default',
      });
      expect(chooseWindow({ window: 32_000, source: 'override', model: 'x' }, undefined)).toEqual({
        window: 32_000,
        origin: 'option',
      });
    });
  });

  describe('with a maximum the provider stated', () => {
    it('should replace the default and the registry, larger or smaller', () => {
      expect(chooseWindow({ window: 128_000, source: 'default', model: 'x' }, 8_000)).toEqual({
        window: 8_000,
        origin: 'learned',
      });
      expect(chooseWindow({ window: 8_192, source: 'family', model: 'gemma-2' }, 16_000)).toEqual({
        window: 16_000,
        origin: 'learned',
      });
    });

    it('should win over a larger option and say which option it overrode', () => {
      expect(chooseWindow({ window: 32_000, source: 'override', model: 'x' }, 8_000)).toEqual({
        window: 8_000,
        origin: 'learned',
        overriddenOption: 32_000,
      });
    });

    it('should keep a smaller option: the user may spend less than the provider accepts', () => {
      expect(chooseWindow({ window: 6_000, source: 'table', model: 'x' }, 8_000)).toEqual({
        window: 6_000,
        origin: 'option',
      });
    });
  });
});

describe('learnedWindowFor', () => {
  it('should use the usage record only for the model it was learned for, and the smaller of state and process', () => {
    const usage = usageRecord({ learnedWindow: 8_000, learnedWindowModel: 'my-model' });
    expect(learnedWindowFor(usage, 'models/my-model', undefined)).toBe(8_000);
    expect(learnedWindowFor(usage, 'other-model', undefined)).toBeUndefined();
    expect(learnedWindowFor(usage, 'other-model', 4_000)).toBe(4_000);
    expect(learnedWindowFor(usage, 'my-model', 6_000)).toBe(6_000);
  });
});

describe('recordStatedWindow', () => {
  it('should store a plausible maximum under the normalised model name and ignore an implausible one', () => {
    const usage = usageRecord();
    expect(recordStatedWindow(usage, 'publishers/google/models/Tiny@2', 8_000)).toMatchObject({
      learnedWindow: 8_000,
      learnedWindowModel: 'tiny',
    });
    expect(recordStatedWindow(usage, 'tiny', 12)).toBe(usage);
    expect(recordStatedWindow(usage, 'tiny', undefined)).toBe(usage);
    expect(plausibleWindow(8_000.5)).toBeUndefined();
  });

  it('should show the stated maximum as the window right away when it is smaller than the one the call used', () => {
    const used = usageRecord({ window: 128_000, windowSource: 'default', threshold: 102_400, hardLimit: 121_600 });
    expect(recordStatedWindow(used, 'tiny', 8_000)).toMatchObject({
      window: 8_000,
      windowSource: 'learned',
      threshold: undefined,
      hardLimit: undefined,
    });
    // A smaller window of the user's own stays, as chooseWindow keeps it.
    const own = usageRecord({ window: 4_000, windowSource: 'option', threshold: 3_200 });
    expect(recordStatedWindow(own, 'tiny', 8_000)).toMatchObject({ window: 4_000, windowSource: 'option' });
  });

  it('should map every registry source to an origin', () => {
    expect(['override', 'table', 'catalogue', 'family', 'default'].map((source) => originOf(source as never))).toEqual([
      'option',
      'option',
      'registry',
      'registry',
      'default',
    ]);
  });
});

describe('learned windows bounded by accepted requests', () => {
  const learned = usageRecord({ learnedWindow: 4_000, learnedWindowModel: 'model-x' });

  it('should ignore a window in state below a request this process saw the model accept, and say it was contradicted', () => {
    expect(learnedFromState(learned, 'model-x', { tokens: 6_000 })).toEqual({ contradicted: true });
    expect(learnedWindowFor(learned, 'model-x', undefined, { tokens: 6_000 })).toBeUndefined();
    expect(learnedFromState(learned, 'model-x', { tokens: 3_000 })).toEqual({ window: 4_000, contradicted: false });
  });

  it("should ignore the process's window when the model accepted a larger request by its own count", () => {
    expect(learnedWindowFor(usageRecord(), 'model-x', 4_000, { tokens: 5_000 })).toBeUndefined();
    expect(learnedWindowFor(usageRecord(), 'model-x', 4_000, { tokens: 3_000 })).toBe(4_000);
    // An estimate is not the provider's count (trial 23: a provider counting 0.8x the estimate, no usage reported).
    expect(learnedWindowFor(usageRecord(), 'model-x', 4_000, { estimate: 5_000 })).toBe(4_000);
    expect(
      learnedFromState(usageRecord({ learnedWindow: 4_000, learnedWindowModel: 'model-x' }), 'model-x', {
        estimate: 5_000,
      }),
    ).toEqual({ window: 4_000, contradicted: false });
  });

  it('should keep the largest accepted size per model, starting afresh for another model', () => {
    const sent = usageRecord({ sentEstimate: 2_000 });
    const first = recordAccepted(sent, 'models/Model-X', 3_000);
    expect(first).toMatchObject({ acceptedModel: 'model-x', acceptedTokens: 3_000, acceptedEstimate: 2_000 });
    expect(recordAccepted({ ...first, sentEstimate: 1_000 }, 'model-x', 2_500)).toMatchObject({
      acceptedTokens: 3_000,
      acceptedEstimate: 2_000,
    });
    expect(recordAccepted(first, 'model-y')).toMatchObject({ acceptedModel: 'model-y', acceptedEstimate: 2_000 });
    expect(recordAccepted(first, 'model-y').acceptedTokens).toBeUndefined();
  });

  it('should not take a count far from what was sent as an accepted size (review 17)', () => {
    // A proxy that reports 900,000 for a request estimated at 5,000: the session then refused every true maximum.
    const sent = usageRecord({ sentEstimate: 5_000 });
    expect(recordAccepted(sent, 'model-x', 900_000).acceptedTokens).toBeUndefined();
    expect(recordAccepted(sent, 'model-x', 5_500).acceptedTokens).toBe(5_500);
  });

  it('should take a request the provider counted below its estimate at its count, keeping a stated maximum', () => {
    // A provider that counts 0.8x the estimate accepted 9,000 estimated tokens as 7,200 under a stated 8,000.
    const accepted = recordAccepted(usageRecord({ sentEstimate: 9_000 }), 'model-x', 7_200);
    expect(accepted).toMatchObject({ acceptedTokens: 7_200, acceptedEstimate: 7_200 });
    const sizes = { tokens: accepted.acceptedTokens, estimate: accepted.acceptedEstimate };
    expect(learnedWindowFor(usageRecord(), 'model-x', 8_000, sizes)).toBe(8_000);
    expect(
      rejectionOutcome(
        accepted,
        'The input token count exceeds the maximum number of tokens allowed (8000).',
        'model-x',
      ).learned,
    ).toBe(8_000);
    // Without a count, the estimate is all there is.
    expect(recordAccepted(usageRecord({ sentEstimate: 9_000 }), 'model-x')).toMatchObject({ acceptedEstimate: 9_000 });
  });

  it("should not bound the window below an accepted estimate by a rejection's measure alone (review 18)", () => {
    // No usage reported: the model accepted a request estimated at 50,000, then one measured at 3,000 was refused
    // with no figures (a spurious 400): the guard's measure is an estimate too, and the accepted one is larger.
    const accepted = recordAccepted(usageRecord({ sentEstimate: 50_000 }), 'model-x');
    const rejected = { ...accepted, sentEstimate: 3_000, lastCalibrated: 3_000 };
    const outcome = rejectionOutcome(rejected, 'The input prompt is too long.', 'model-x', { estimate: 50_000 }, 3_000);
    expect(outcome.bounded).toBeUndefined();
  });

  it('should floor a window at 1,024 and at accepted counts, an estimate only beside a rejection, at most one for one', () => {
    expect(windowFloor([])).toBe(1_024);
    expect(windowFloor([{ tokens: 5_000 }, { estimate: 6_000 }])).toBe(5_000);
    expect(windowFloor([{ tokens: 5_000 }, { estimate: 6_000 }], 1)).toBe(6_000);
    expect(windowFloor([{ estimate: 6_000 }], 0.5)).toBe(3_000);
    expect(windowFloor([{ estimate: 6_000 }], 3)).toBe(6_000);
  });
});

describe('acceptedByCall', () => {
  it("should tell the process this call's own count and estimate, never the session's record", () => {
    const forged = usageRecord({ sentEstimate: 9_000, acceptedTokens: 5_000_000, acceptedEstimate: 5_000_000 });
    expect(acceptedByCall(forged, 10_000)).toEqual({ tokens: 10_000, estimate: 9_000 });
    expect(acceptedByCall(forged, 8_000)).toEqual({ tokens: 8_000, estimate: 8_000 });
    expect(acceptedByCall(forged, undefined)).toEqual({ tokens: undefined, estimate: 9_000 });
  });

  it('should leave out a count far from the estimate that was sent (a provider over-reporting tenfold)', () => {
    expect(acceptedByCall(usageRecord({ sentEstimate: 1_000 }), 10_000)).toEqual({
      tokens: undefined,
      estimate: 1_000,
    });
    expect(acceptedByCall(usageRecord({ sentEstimate: 1_000 }), 5_000_000).tokens).toBeUndefined();
    expect(acceptedByCall(usageRecord({ sentEstimate: 1_000 }), Number.NaN).tokens).toBeUndefined();
  });
});

describe('acceptedIn', () => {
  it('should read an accepted estimate stored above the accepted count at the count (sessions stored before counts bounded it)', () => {
    const stored = usageRecord({ acceptedModel: 'gemini-2.5-flash', acceptedTokens: 7_200, acceptedEstimate: 9_000 });
    expect(acceptedIn(stored, 'gemini-2.5-flash')).toEqual({ tokens: 7_200, estimate: 7_200 });
    expect(acceptedIn({ ...stored, acceptedTokens: undefined }, 'gemini-2.5-flash')?.estimate).toBe(9_000);
  });
});

describe("decideWindow of a RoutedLlm's name", () => {
  it("should never take a stated maximum above the smallest of its models' windows (review 11)", () => {
    // Both models rejected; the error that reaches the guard is the last one's, the large model's maximum.
    const model = 'routedllm[small (gemma-2b), large (gemini-1.0-pro)]';
    const usage = recordStatedWindow(usageRecord(), model, 32_760);
    const resolved = { window: 8_192, source: 'family', model: 'gemma-2b' } as const;
    expect(decideWindow(usage, { model, resolved, processWindow: undefined, processAccepted: undefined }).window).toBe(
      8_192,
    );
    const smaller = recordStatedWindow(usageRecord(), model, 6_000);
    expect(
      decideWindow(smaller, { model, resolved, processWindow: undefined, processAccepted: undefined }).window,
    ).toBe(6_000);
  });

  it('should cap it the same for a RoutedLlm given its own name, whose name lists no models (review 12)', () => {
    const model = 'log-router';
    const usage = recordStatedWindow(usageRecord(), model, 32_760);
    const resolved = { window: 8_192, source: 'family', model: 'gemma-2b' } as const;
    const evidence = { model, resolved, processWindow: undefined, processAccepted: undefined };
    expect(decideWindow(usage, { ...evidence, renamedRouter: true }).window).toBe(8_192);
    // Any other model: the stated maximum is its own, and wins.
    expect(decideWindow(usage, evidence).window).toBe(32_760);
  });
});

describe('decideWindow: where a stated maximum came from', () => {
  it("should say a maximum is the session's state alone unless this process learned one as small", () => {
    // The fifty-eighth outside trial: a tool's forged window was warned about as the provider's statement.
    const model = 'gemini-2.5-flash';
    const resolved = { window: 16_000, source: 'override', model } as const;
    const usage = recordStatedWindow(usageRecord(), model, 2_000);
    const evidence = { model, resolved, processAccepted: undefined };
    expect(decideWindow(usage, { ...evidence, processWindow: undefined })).toMatchObject({
      window: 2_000,
      stateOnly: true,
    });
    expect(decideWindow(usage, { ...evidence, processWindow: 2_000 })).toMatchObject({
      window: 2_000,
      stateOnly: false,
    });
    expect(decideWindow(usage, { ...evidence, processWindow: 1_500 })).toMatchObject({
      window: 1_500,
      stateOnly: false,
    });
    expect(decideWindow(usageRecord(), { ...evidence, processWindow: undefined }).stateOnly).toBe(false);
  });
});
