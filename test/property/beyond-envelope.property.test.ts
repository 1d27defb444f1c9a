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
import { describe } from 'vitest';
import { beyondEnvelopeDrift, beyondEnvelopeWorld } from '../support/conversation-arbitraries.js';
import { guardPropertyTest } from './run-property.js';

// ADK warns about events from "unknown" agents in the two-roots topology; keep the CI log readable.
setLogLevel(LogLevel.ERROR);

describe('ContextGuard through the real Runner, beyond the calibration envelope', () => {
  guardPropertyTest(
    'should recover from every rejection within two calls and keep every other promise',
    'beyond the envelope',
    654550707,
    {
      world: beyondEnvelopeWorld,
      drift: beyondEnvelopeDrift,
      checks: { allowRecoveredRejections: true, summarizerWithinWindow: false },
    },
  );
});
