import { describe, expect, it } from 'vitest';
import { usageRecord } from '../../test/support/builders.js';
import { decodeUsageRecord } from './stored-usage.js';
import { encodeRecord } from '../state/codec.js';
import { acceptedAfterFailover, recordFailover, stickyFailoverWindow } from './failover.js';
import { modelKey } from '../estimate/model-registry.js';

const ROUTER = 'routed:large,small';

describe('failover-shaped refusals', () => {
  it("should hold the session to the member's window from the second refusal at it, not the first", () => {
    const once = recordFailover(usageRecord(), ROUTER, 8_000);
    expect(stickyFailoverWindow(once, modelKey(ROUTER), true)).toBeUndefined();
    // Forty calls into the session, so that a hold read back from 0 would be over already (review 50).
    const twice = recordFailover({ ...once, modelCalls: 40 }, ROUTER, 8_000);
    expect(stickyFailoverWindow(twice, modelKey(ROUTER), true)).toBe(8_000);
    expect(stickyFailoverWindow(twice, modelKey('another-model'), true)).toBeUndefined();
    // Read back from the stored record, as another replica reads it.
    expect(stickyFailoverWindow(decodeUsageRecord(encodeRecord(twice)), modelKey(ROUTER), true)).toBe(8_000);
    // Only for a routed model (review 49: a state write held any model), and for twenty calls, then a probe.
    expect(stickyFailoverWindow(twice, modelKey(ROUTER), false)).toBeUndefined();
    expect(stickyFailoverWindow({ ...twice, modelCalls: twice.modelCalls + 19 }, modelKey(ROUTER), true)).toBe(8_000);
    expect(
      stickyFailoverWindow({ ...twice, modelCalls: twice.modelCalls + 20 }, modelKey(ROUTER), true),
    ).toBeUndefined();
  });

  it('should count again from one at another window, and forget them once a larger request is accepted', () => {
    const other = recordFailover(recordFailover(usageRecord(), ROUTER, 8_000), ROUTER, 16_000);
    expect(other.failovers).toBe(1);
    const once = recordFailover(usageRecord(), ROUTER, 8_000);
    expect(acceptedAfterFailover(once, 7_900)).toBe(once);
    const back = acceptedAfterFailover(once, 12_000);
    expect(recordFailover(back, ROUTER, 8_000).failovers).toBe(1);
    expect(back).not.toHaveProperty('failoverWindow');
    const held = acceptedAfterFailover(recordFailover(once, ROUTER, 8_000), 12_000);
    expect(held).not.toHaveProperty('failoverAt');
  });
});
