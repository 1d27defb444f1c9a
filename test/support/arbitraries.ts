/**
 * Named fast-check arbitraries shared by the property tests of the core.
 * Every generator produces valid data (ADK-shaped conversations, well-formed
 * UTF-16); invalid inputs are built explicitly by the tests that need them.
 */
import fc from 'fast-check';
import type { Content } from '@google/genai';
import type { CalibrationState } from '../../src/estimate/calibration.js';
import type { SummaryRecord } from '../../src/summary/stored-summary.js';
import type { UsageRecord } from '../../src/usage/stored-usage.js';
import { RECORD_VERSION } from '../../src/state/codec.js';
import { foreignContext, functionCalls, functionResponses, modelText, modelThought, userText } from './builders.js';

/** Runs per property: enough to shrink to small counterexamples, cheap enough for the unit loop. */
export const PROPERTY_RUNS = { numRuns: 200 } as const;
/** For properties whose single run is heavier (whole conversations, guard decisions). */
export const HEAVY_PROPERTY_RUNS = { numRuns: 100 } as const;

/**
 * Characters that stress UTF-16 cuts: ASCII, Latin with a combining accent,
 * CJK, emoji (surrogate pairs), a ZWJ family, a flag (two pairs) and newlines.
 */
export const STRESS_GRAPHEMES: readonly string[] = [
  'a',
  'Z',
  '7',
  ' ',
  '\n',
  '"',
  '\\',
  'e\u0301',
  'n\u0303',
  '\u0915\u094d\u0937',
  '漢',
  '字',
  'の',
  '한',
  '😀',
  '🚀',
  '👩\u200d💻',
  '🇫🇷',
  '𝔘',
];

/** Text mixing every script above; well-formed UTF-16 (no lone surrogate). */
export function mixedText(constraints: { minLength?: number; maxLength?: number } = {}): fc.Arbitrary<string> {
  return fc.string({
    unit: fc.constantFrom(...STRESS_GRAPHEMES),
    minLength: constraints.minLength ?? 0,
    maxLength: constraints.maxLength ?? 200,
  });
}

/** Any sequence of UTF-16 units, lone surrogates included: what a broken upstream can hand over. */
export function rawUtf16Text(maxLength = 300): fc.Arbitrary<string> {
  return fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength }).map((units) => String.fromCharCode(...units));
}

/** True when `text` holds a surrogate half without its partner. */
export function hasLoneSurrogate(text: string): boolean {
  return /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

const toolNames = fc.constantFrom('fetch_logs', 'search', 'read_file', 'run_query');

/** A JSON object as a tool returns or receives it. */
export const jsonObject: fc.Arbitrary<Record<string, unknown>> = fc.dictionary(
  fc.string({ maxLength: 8 }),
  fc.jsonValue({ maxDepth: 2 }),
  { maxKeys: 4 },
);

/** One tool step: a model content calling 1-3 tools, then the user content with their results. */
const toolStep: fc.Arbitrary<Content[]> = fc
  .array(fc.record({ name: toolNames, args: jsonObject, response: jsonObject }), { minLength: 1, maxLength: 3 })
  .map((calls) => [
    functionCalls(...calls.map(({ name, args }) => ({ name, args }))),
    functionResponses(...calls.map(({ name, response }) => ({ name, response }))),
  ]);

/** One turn: a user request (or another agent's context), tool steps, maybe a thought, maybe an answer. */
const turn: fc.Arbitrary<Content[]> = fc
  .record({
    opening: fc.oneof(
      { weight: 4, arbitrary: mixedText({ minLength: 1, maxLength: 40 }).map((text) => userText(`Request: ${text}`)) },
      { weight: 1, arbitrary: mixedText({ maxLength: 40 }).map((text) => foreignContext(text)) },
    ),
    thought: fc.option(
      mixedText({ minLength: 1, maxLength: 20 }).map((text) => modelThought(text)),
      { nil: undefined },
    ),
    steps: fc.array(toolStep, { maxLength: 3 }),
    answer: fc.option(
      mixedText({ minLength: 1, maxLength: 60 }).map((text) => modelText(text)),
      { nil: undefined },
    ),
  })
  .map(({ opening, thought, steps, answer }) => [
    opening,
    ...(thought ? [thought] : []),
    ...steps.flat(),
    ...(answer ? [answer] : []),
  ]);

/**
 * An ADK-shaped conversation: turns in order, every function response right
 * after its call, possibly ending in the middle of a tool chain.
 */
export const conversation: fc.Arbitrary<Content[]> = fc.array(turn, { minLength: 1, maxLength: 6 }).chain((turns) => {
  const contents = turns.flat();
  // End anywhere, but never between a call and its response (ADK sends a call's result with it).
  const ends = contents
    .map((_, i) => i + 1)
    .filter((end) => contents[end - 1]?.parts?.every((part) => part.functionCall === undefined));
  return fc.constantFrom(...ends).map((end) => contents.slice(0, end));
});

/** A conversation with per-content token estimates aligned to it. */
export const measuredConversation: fc.Arbitrary<{ contents: Content[]; tokens: number[] }> = conversation.chain(
  (contents) =>
    fc
      .array(fc.integer({ min: 1, max: 2_000 }), { minLength: contents.length, maxLength: contents.length })
      .map((tokens) => ({ contents, tokens })),
);

/** Calibration state as the guard stores it, from nothing learned to a full pair. */
export const calibrationState: fc.Arbitrary<CalibrationState> = fc.record(
  {
    realPromptTokens: fc.integer({ min: 1, max: 2_000_000 }),
    lastEstimate: fc.integer({ min: 1, max: 2_000_000 }),
    lastFraming: fc.integer({ min: 1, max: 2_000_000 }),
    learnedCorrection: fc.double({ min: 1, max: 5, noNaN: true }),
  },
  { requiredKeys: [] },
);

const count = fc.integer({ min: 0, max: 10_000_000 });
const positiveCount = fc.integer({ min: 1, max: 10_000_000 });

/** A valid usage record, as the guard would persist it. */
export const usageRecordArbitrary: fc.Arbitrary<UsageRecord> = fc.record({
  version: fc.constant(RECORD_VERSION),
  realPromptTokens: fc.option(positiveCount, { nil: undefined }),
  lastEstimate: fc.option(positiveCount, { nil: undefined }),
  lastFraming: fc.option(positiveCount, { nil: undefined }),
  sentEstimate: fc.option(positiveCount, { nil: undefined }),
  sentFraming: fc.option(positiveCount, { nil: undefined }),
  lastCalibrated: fc.option(positiveCount, { nil: undefined }),
  learnedCorrection: fc.option(fc.double({ min: 1, max: 5, noNaN: true }), { nil: undefined }),
  outputTokens: fc.option(count, { nil: undefined }),
  modelCalls: count,
  compactions: count,
  maskings: count,
  discardedCompactions: count,
  droppedPreparations: count,
  overLimitCalls: count,
  rejectedCalls: count,
  retriedCalls: count,
  budgetLines: count,
  budgetLineTokens: count,
  forceCompaction: fc.boolean(),
  window: fc.option(positiveCount, { nil: undefined }),
  threshold: fc.option(positiveCount, { nil: undefined }),
  hardLimit: fc.option(positiveCount, { nil: undefined }),
  invocations: count,
  lastInvocationId: fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
  turnStartCalibrated: fc.option(positiveCount, { nil: undefined }),
  averageTurnTokens: fc.option(fc.double({ min: 0.5, max: 1_000_000, noNaN: true }), { nil: undefined }),
});

/** A valid summary record, as the guard would persist it. */
export const summaryRecordArbitrary: fc.Arbitrary<SummaryRecord> = fc.record({
  version: fc.constant(RECORD_VERSION),
  text: mixedText({ minLength: 1, maxLength: 80 }),
  covered: fc.integer({ min: 1, max: 100_000 }),
  anchor: fc.string({ maxLength: 30 }),
  currentRequest: fc.option(mixedText({ maxLength: 40 }), { nil: undefined }),
  compactions: fc.integer({ min: 1, max: 1_000 }),
  fallback: fc.boolean(),
  createdAt: fc.integer({ min: 0, max: 4_000_000_000_000 }),
  facts: fc.array(
    fc.record({ text: mixedText({ minLength: 1, maxLength: 40 }), addedAt: fc.nat(1_000), lastSeen: fc.nat(1_000) }),
    { maxLength: 3 },
  ),
});
