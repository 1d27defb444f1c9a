import { describe, expect, it } from 'vitest';
import { usageRecord } from '../../test/support/builders.js';
import { recordAgentAdditions } from './agent-additions.js';

describe('recordAgentAdditions', () => {
  it('should carry the measured addition and pair the real count with the request actually sent', () => {
    const next = recordAgentAdditions(usageRecord({ sentEstimate: 1_000 }), 3_000);
    expect(next).toMatchObject({ agentAddedTokens: 3_000, sentEstimate: 4_000 });
  });

  it('should replace the carried addition this call counted', () => {
    const next = recordAgentAdditions(usageRecord({ sentEstimate: 4_000, agentAddedTokens: 3_000 }), 500);
    expect(next).toMatchObject({ agentAddedTokens: 500, sentEstimate: 1_500 });
  });

  it('should clear it when the callbacks stop adding, and ignore a negative or non-finite figure', () => {
    expect(recordAgentAdditions(usageRecord({ sentEstimate: 4_000, agentAddedTokens: 3_000 }), 0)).toMatchObject({
      agentAddedTokens: undefined,
      sentEstimate: 1_000,
    });
    const usage = usageRecord({ sentEstimate: 1_000 });
    expect(recordAgentAdditions(usage, -50)).toBe(usage);
    expect(recordAgentAdditions(usage, Number.NaN)).toBe(usage);
  });
});
