/**
 * Named arbitraries for the model-based runs through the real Runner: turn
 * plans (user text, images, parallel and sequential tool calls, empty and
 * huge outputs, hand-overs), world configurations (topology, windows from 2k
 * to 1M, ratios, policies) and the two envelopes the properties use.
 */
import fc from 'fast-check';
import { mixedText } from './arbitraries.js';
import type { GroundTruth, StepPlan, ToolCallPlan, Topology, TurnPlan, WorldConfig } from './guarded-world.js';
import { PAYLOAD_KINDS, TEXT_PAYLOAD_KINDS, type PayloadKind } from './payloads.js';
import { SUMMARIZER_MODES, type SummarizerMode } from '../../src/testing/index.js';

/** Windows from 2k to 1M tokens, log-uniform, so small windows (where compaction happens) are common. */
export const windowArbitrary: fc.Arbitrary<number> = fc
  .double({ min: Math.log(2_000), max: Math.log(1_000_000), noNaN: true })
  .map((log) => Math.round(Math.exp(log)));

export const payloadKind: fc.Arbitrary<PayloadKind> = fc.constantFrom(...PAYLOAD_KINDS);

/** A tool call: mostly small or empty results, sometimes a large share of the window. */
export const toolCallPlan: fc.Arbitrary<ToolCallPlan> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constantFrom<PayloadKind>('empty-object', 'empty-string'),
      chars: fc.constant(0),
      seed: fc.nat(1_000),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({ kind: payloadKind, chars: fc.integer({ min: 1, max: 3_000 }), seed: fc.nat(1_000) }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: payloadKind,
      windowFraction: fc.double({ min: 0.02, max: 0.35, noNaN: true }),
      seed: fc.nat(1_000),
    }),
  },
);

/** A tool output larger than the whole window of the agent that calls the tool. */
export const hugeToolCallPlan: fc.Arbitrary<ToolCallPlan> = fc.record({
  kind: fc.constantFrom<PayloadKind>(...TEXT_PAYLOAD_KINDS, 'json-rows'),
  windowFraction: fc.double({ min: 0.5, max: 2.5, noNaN: true }),
  seed: fc.nat(1_000),
});

function stepArbitrary(agents: readonly string[], callPlan: fc.Arbitrary<ToolCallPlan>): fc.Arbitrary<StepPlan> {
  const tools = fc.array(callPlan, { minLength: 1, maxLength: 3 }).map((calls): StepPlan => ({ kind: 'tools', calls }));
  if (agents.length < 3) return tools;
  return fc.oneof(
    { weight: 4, arbitrary: tools },
    { weight: 1, arbitrary: fc.constantFrom(...agents).map((to): StepPlan => ({ kind: 'transfer', to })) },
  );
}

/** A user turn: text with every script, maybe an image, 0-3 steps. */
export function turnPlan(agents: readonly string[], roots: number): fc.Arbitrary<TurnPlan> {
  return fc.record({
    entry: fc.integer({ min: 0, max: Math.max(0, roots - 1) }),
    text: mixedText({ minLength: 1, maxLength: 60 }).map((text) => `Question: ${text}`),
    image: fc.option(
      fc.record({ width: fc.integer({ min: 16, max: 4_000 }), height: fc.integer({ min: 16, max: 4_000 }) }),
      { nil: undefined, freq: 8 },
    ),
    steps: fc.array(stepArbitrary(agents, toolCallPlan), { maxLength: 3 }),
    answerChars: fc.integer({ min: 0, max: 400 }),
  });
}

/** A turn whose first step returns more than the agent's whole window. */
export function largeToolOutputTurn(agents: readonly string[], roots: number): fc.Arbitrary<TurnPlan> {
  return fc.record({
    entry: fc.integer({ min: 0, max: Math.max(0, roots - 1) }),
    text: fc.constant('Fetch the full export and summarise it.'),
    image: fc.constant(undefined),
    steps: fc
      .tuple(hugeToolCallPlan, fc.array(stepArbitrary(agents, toolCallPlan), { maxLength: 1 }))
      .map(([huge, rest]): StepPlan[] => [{ kind: 'tools', calls: [huge] }, ...rest]),
    answerChars: fc.integer({ min: 0, max: 200 }),
  });
}

export const summarizerMode: fc.Arbitrary<SummarizerMode> = fc.constantFrom(
  ...SUMMARIZER_MODES.filter((mode) => mode !== 'hang-deaf'),
);

export const topology: fc.Arbitrary<Topology> = fc.constantFrom<Topology>('single', 'two-roots', 'router');

/** The agents, windows and summarizer of a world, the same inside and beyond the envelope. */
const worldShape = {
  topology,
  windows: fc.array(windowArbitrary, { minLength: 3, maxLength: 3 }),
  unconfiguredAgent: fc.integer({ min: -1, max: 2 }),
  reportUsage: fc.boolean(),
  summarizerMode,
};

/** Most instructions are short; some are long enough to take much of a small window. */
const instructionChars = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 30, max: 400 }) },
  { weight: 1, arbitrary: fc.integer({ min: 400, max: 20_000 }) },
);

/**
 * The calibration envelope: a provider whose counts are proportional to the
 * estimator's, either framing included ('estimator') or to its counted texts
 * and media only ('proportional': its ratio to the whole estimate is lower on a
 * request of a hundred tokens than on one of thousands, which calibration
 * learns net of framing), at a ratio no higher than the configured
 * `defaultCorrection` (the prior the guard is told to assume before its first
 * real count), and drifting at most 8% from its base. Inside it the guard
 * promises that no request goes over the window unless it logged why. (A ratio
 * above the prior is only covered by the lower uncalibrated threshold when the
 * request can be compacted below it: beyond-envelope.property.test.ts's worlds.)
 */
export const envelopeWorld: fc.Arbitrary<WorldConfig> = fc
  .record({
    ...worldShape,
    // From 4k: the guard gives the summarizer's prompt a floor of 1,024 estimated tokens, which a smaller window
    // cannot hold at every ratio (reported; beyond-envelope runs still use 2k summarizers).
    summarizerWindow: windowArbitrary.filter((window) => window >= 4_096),
    instructionChars,
    bufferRatio: fc.option(fc.double({ min: 0.15, max: 0.4, noNaN: true }), { nil: undefined }),
    compactTargetRatio: fc.option(fc.double({ min: 0.2, max: 0.8, noNaN: true }), { nil: undefined }),
    hardLimitRatio: fc.option(fc.double({ min: 0.85, max: 1, noNaN: true }), { nil: undefined }),
    uncalibratedThresholdRatio: fc.option(fc.double({ min: 0.3, max: 0.6, noNaN: true }), { nil: undefined }),
    defaultCorrection: fc.option(fc.double({ min: 1, max: 2.5, noNaN: true }), { nil: undefined }),
    ratioShare: fc.double({ min: 0, max: 1, noNaN: true }),
    // Off, huge tool results reach the request and the guard's own shrinking; on (the default), they are cut at the source.
    toolOutputTruncation: fc.constantFrom<false | undefined>(false, undefined),
    truth: fc.constantFrom<GroundTruth>('estimator', 'proportional'),
  })
  .map(
    ({
      ratioShare,
      bufferRatio,
      compactTargetRatio,
      hardLimitRatio,
      uncalibratedThresholdRatio,
      defaultCorrection,
      toolOutputTruncation,
      ...rest
    }): WorldConfig => {
      // Up to the prior, less the 8% the provider may drift.
      const maxRatio = (defaultCorrection ?? 1.5) * 0.92;
      return {
        ...rest,
        ratio: 0.3 + ratioShare * (maxRatio - 0.3),
        policy: {
          bufferRatio,
          compactTargetRatio,
          hardLimitRatio,
          uncalibratedThresholdRatio,
          defaultCorrection,
          toolOutputTruncation,
        },
      };
    },
  );

/** Drift inside the envelope: +-8% of the base ratio. */
export const envelopeDrift: fc.Arbitrary<number> = fc.double({ min: 0.92, max: 1.08, noNaN: true });

/**
 * Beyond the envelope: mostly a chars/4 provider (its ratio to the estimator
 * swings with the script: CJK, base64, prose), sometimes a tiktoken one
 * without the estimator's framing (its ratio to the estimate is lower on a
 * small request than on a large one), ratios up to 4, drift up to 40%.
 * The provider may reject; the guard must recover on the next call.
 */
export const beyondEnvelopeWorld: fc.Arbitrary<WorldConfig> = fc
  .record({
    ...worldShape,
    summarizerWindow: windowArbitrary,
    instructionChars,
    ratio: fc.double({ min: 0.5, max: 4, noNaN: true }),
    strategy: fc.constantFrom<'threshold' | 'sliding-window'>('threshold', 'threshold', 'sliding-window'),
    toolOutputTruncation: fc.constantFrom<false | undefined>(false, undefined),
    truth: fc.constantFrom<GroundTruth>('chars', 'chars', 'chars', 'proportional'),
  })
  .map(({ strategy, toolOutputTruncation, ...rest }): WorldConfig => ({
    ...rest,
    policy: { strategy, toolOutputTruncation },
  }));

export const beyondEnvelopeDrift: fc.Arbitrary<number> = fc.double({ min: 0.6, max: 1.4, noNaN: true });
