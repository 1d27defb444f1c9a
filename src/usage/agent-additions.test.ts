import { describe, expect, it } from 'vitest';
import { usageRecord } from '../../test/support/builders.js';
import { carryAgentAdditions, recordAgentAdditions } from './agent-additions.js';

describe('recordAgentAdditions', () => {
  it('should carry the measured addition and pair the real count with the request actually sent', () => {
    const next = recordAgentAdditions(usageRecord({ sentEstimate: 1_000 }), 3_000);
    expect(next).toMatchObject({ agentAddedTokens: 3_000, sentEstimate: 4_000 });
  });

  it('should replace the carried addition this call counted', () => {
    const next = recordAgentAdditions(usageRecord({ sentEstimate: 4_000, agentAddedTokens: 3_000 }), 500);
    expect(next).toMatchObject({ agentAddedTokens: 500, sentEstimate: 1_500 });
  });

  it('should clear it when the callbacks stop adding, and ignore a non-finite figure', () => {
    expect(recordAgentAdditions(usageRecord({ sentEstimate: 4_000, agentAddedTokens: 3_000 }), 0)).toMatchObject({
      agentAddedTokens: undefined,
      sentEstimate: 1_000,
    });
    const usage = usageRecord({ sentEstimate: 1_000 });
    expect(recordAgentAdditions(usage, Number.NaN)).toBe(usage);
  });

  it('should carry no removal, and pair the real count with the request the callbacks cut', () => {
    // A callback that sends a quarter of the request: the count is of that quarter, never of the whole.
    const next = recordAgentAdditions(usageRecord({ sentEstimate: 4_000 }), -3_000);
    expect(next).toMatchObject({ agentAddedTokens: undefined, sentEstimate: 1_000 });
    // Adding a block while dropping more: still nothing carried, the net change paired.
    const both = recordAgentAdditions(usageRecord({ sentEstimate: 4_000, agentAddedTokens: 500 }), -2_000);
    expect(both).toMatchObject({ agentAddedTokens: undefined, sentEstimate: 1_500 });
    expect(recordAgentAdditions(usageRecord({ sentEstimate: 100 }), -5_000).sentEstimate).toBe(1);
  });

  it("should pair the whole request in Interactions mode, whose count is of the server's chain", () => {
    const usage = usageRecord({ sentEstimate: 4_000, interactionsApi: true });
    expect(recordAgentAdditions(usage, -3_000)).toBe(usage);
    expect(recordAgentAdditions(usage, 500)).toMatchObject({ agentAddedTokens: 500, sentEstimate: 4_500 });
  });
});

describe('carryAgentAdditions', () => {
  it('should carry what a rejected request measured and leave the estimate of the retry as it was decided', () => {
    const next = carryAgentAdditions(usageRecord({ sentEstimate: 4_000, agentAddedTokens: 300 }), 2_500);
    expect(next).toMatchObject({ agentAddedTokens: 2_500, sentEstimate: 4_000 });
  });

  it('should clear it for nothing added, and keep the record when nothing changes', () => {
    expect(carryAgentAdditions(usageRecord({ agentAddedTokens: 300 }), 0).agentAddedTokens).toBeUndefined();
    const usage = usageRecord({ agentAddedTokens: 300 });
    expect(carryAgentAdditions(usage, 300)).toBe(usage);
    expect(carryAgentAdditions(usageRecord({}), Number.NaN).agentAddedTokens).toBeUndefined();
  });
});
