/**
 * Model-based property beyond the calibration envelope: a chars/4 provider
 * (its ratio to the estimator swings with the content: CJK and base64 cost
 * less than estimated, prose more), base ratios up to 4 whether or not usage
 * is reported, drift up to 40%, both strategies. The provider may reject a
 * request the guard believed fit; then:
 * - the rejection never fails the turn other than with the provider's own
 *   error event, and the agent recovers: each rejection forces a compaction
 *   sized by the real count the error states, so no agent is rejected three
 *   times in a row (twice happens when the content mix swings between the
 *   two calls: base64 then prose costs 4x more per estimated token here),
 *   unless the guard logged that nothing more could be removed or it could
 *   not get the request under its own threshold;
 * - every other promise of within-envelope.property.test.ts holds for every
 *   call, rejected ones included (pairing, start, current request, no
 *   compaction loop, decodable state whose counters match what happened).
 */
import { LogLevel, setLogLevel } from '@google/adk';
import { afterAll, describe, expect, it } from 'vitest';
import { beyondEnvelopeDrift, beyondEnvelopeWorld } from '../support/conversation-arbitraries.js';
import { assertGuardProperty, emptyCounts, formatCounts, propertySeed } from './run-property.js';

// ADK warns about events from "unknown" agents in the two-roots topology; keep the CI log readable.
setLogLevel(LogLevel.ERROR);

/** Fewer runs than this means the time limit cut the property short on a very slow machine: fail rather than pass quietly. */
const MIN_RUNS = 10;

const counts = emptyCounts();
const seed = propertySeed(654550707);
let elapsed = 0;

describe('ContextGuard through the real Runner, beyond the calibration envelope', () => {
  it('should recover from every rejection within two calls and keep every other promise', async () => {
    const started = Date.now();
    try {
      await assertGuardProperty(seed, {
        world: beyondEnvelopeWorld,
        drift: beyondEnvelopeDrift,
        checks: { allowRecoveredRejections: true, summarizerWithinWindow: false },
        numRuns: 100,
        timeLimitMs: 40_000,
        maxCommands: 24,
        payloadCap: 6_000_000,
        counts,
      });
      expect(counts.runs).toBeGreaterThanOrEqual(MIN_RUNS);
    } finally {
      elapsed = Date.now() - started;
    }
  }, 120_000);
});

afterAll(() => {
  console.log(formatCounts('beyond the envelope', seed, counts, elapsed));
});
