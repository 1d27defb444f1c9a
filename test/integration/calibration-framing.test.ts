/**
 * Calibration net of the estimator's framing, through the real Runner: the
 * plugin records the framing of what it sent, the system instruction's and
 * the tools entry's included, as ADK builds the request. (That a provider
 * counting texts only is then not underestimated after a small first request
 * is test/property/within-envelope.property.test.ts's pinned example.)
 */
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { decodeUsageRecord, stateKeysFor } from '../../src/internal.js';
import { createHarness, toolThenAnswerScript } from '../support/agent-harness.js';

describe('calibration and the framing of a request', () => {
  it('should record the framing of the system instruction, the tools entry and the contents it sent', async () => {
    const harness = createHarness({ window: 100_000, script: toolThenAnswerScript(0), plugins: [new ContextGuard()] });
    const session = await harness.sessionAfterTurns(1);
    const usage = decodeUsageRecord(session.state[stateKeysFor('worker').usage]);
    expect(harness.model.requests).toHaveLength(1);
    // 4 for the instruction + 4 for ADK's one tools entry (all function declarations) + the message (4 + 3).
    expect(usage.sentFraming).toBe(15);
    expect(usage.lastFraming).toBe(15);
  });
});
