/**
 * Model-based property: random conversations through the real ADK Runner
 * (InMemorySessionService, real LlmAgents and tools, a strict scripted
 * provider per agent), with a provider whose counts are proportional to the
 * estimator's and drift at most 8%. For every model call:
 * - the request is under the model's window, or the guard logged the
 *   over-hard-limit warning for it (an irreducible system prompt or tool set);
 * - every function call is immediately followed by its responses and every
 *   response follows its call;
 * - contents start with a user content;
 * - the user's current request is in the request (verbatim, or restated by
 *   the summary when the turn itself was compacted);
 * - no compaction on consecutive calls of an agent without the history growing;
 *   every compaction covers something new and never grows the request;
 * and after every command the guard's state decodes and round-trips, its
 * counters match what happened, and no turn threw or ended in an error.
 */
import { LogLevel, setLogLevel } from '@google/adk';
import { describe } from 'vitest';
import { envelopeDrift, envelopeWorld } from '../support/conversation-arbitraries.js';
import { SetSummarizer, UserTurn } from './guard-commands.js';
import { smallFirstRequestCommands, smallFirstRequestWorld } from './pinned-worlds.js';
import { guardPropertyTest, type GuardPropertyOptions } from './run-property.js';

// ADK warns about events from "unknown" agents in the two-roots topology; keep the CI log readable.
setLogLevel(LogLevel.ERROR);

/**
 * Counterexamples this property found, replayed first on every run:
 * 1. a 2k window whose compacted request still had to be shrunk: the head+tail cut of the summary content dropped
 *    the restated user request (fixed in src/summary/inject-summary.ts, shrinkSummaryText);
 * 2. an image whose tiles cost more than the window: shrinking measured parts by their JSON length and never omitted
 *    it (fixed in src/shrink/oversized-parts.ts, omitCostlyMedia);
 * 3. an image omitted from a first request of ~130 estimated tokens, then sent with the next call: a provider that left
 *    out the estimator's framing calibrated the factor 14% low on that small request, and the call was rejected (fixed
 *    in src/estimate/calibration.ts, learnedFactor: a real count is compared with the estimate net of framing); pinned
 *    with both providers.
 */
const PINNED: NonNullable<GuardPropertyOptions['examples']> = [
  [
    {
      topology: 'single',
      windows: [2000, 2000, 1000000],
      unconfiguredAgent: -1,
      reportUsage: false,
      summarizerMode: 'max-tokens',
      summarizerWindow: 2000,
      instructionChars: 405,
      truth: 'proportional',
      ratio: 1.38,
      policy: {
        bufferRatio: 0.15,
        compactTargetRatio: 0.476,
        hardLimitRatio: 0.983,
        uncalibratedThresholdRatio: 0.476,
        defaultCorrection: undefined,
      },
    },
    [
      new SetSummarizer('throw'),
      new UserTurn({
        entry: 0,
        text: 'Question: a',
        steps: [
          { kind: 'tools', calls: [{ kind: 'log', windowFraction: 0.03042, seed: 24 }] },
          { kind: 'tools', calls: [{ kind: 'log', chars: 2098, seed: 100 }] },
        ],
        answerChars: 0,
      }),
    ],
  ],
  [
    {
      topology: 'router',
      windows: [15848, 15415, 2738],
      unconfiguredAgent: 2,
      reportUsage: false,
      summarizerMode: 'error-response',
      summarizerWindow: 506002,
      instructionChars: 381,
      truth: 'proportional',
      ratio: 1.45,
      policy: {
        bufferRatio: 0.15,
        compactTargetRatio: 0.79,
        hardLimitRatio: 1,
        uncalibratedThresholdRatio: undefined,
        defaultCorrection: 1.586,
      },
    },
    [
      new UserTurn({
        entry: 0,
        text: 'Question: a',
        image: { width: 9_000, height: 9_000 },
        steps: [],
        answerChars: 0,
      }),
    ],
  ],
  [{ ...smallFirstRequestWorld, truth: 'estimator' }, smallFirstRequestCommands()],
  [{ ...smallFirstRequestWorld, truth: 'proportional' }, smallFirstRequestCommands()],
];

describe('ContextGuard through the real Runner, inside the calibration envelope', () => {
  guardPropertyTest(
    'should keep every request under its window (or say why), well-formed, with the current request, without compaction loops, and with decodable state',
    'inside the envelope',
    1563566466,
    {
      world: envelopeWorld,
      drift: envelopeDrift,
      checks: { allowRecoveredRejections: false, summarizerWithinWindow: true },
      examples: PINNED,
    },
  );
});
