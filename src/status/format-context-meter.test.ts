import { describe, expect, it } from 'vitest';
import { agentStatus, formatContextMeter } from './context-status.js';
import { stateKeysFor } from '../state/keys.js';

/** The status of agent `worker` after calls whose last estimate is `used` of an 8,000 window, turns of 1,000. */
function statusAt(used: number) {
  const usage = { lastCalibrated: used, window: 8_000, threshold: 6_400, averageTurnTokens: 1_000, modelCalls: 3 };
  return agentStatus({ [stateKeysFor('worker').usage]: usage }, 'worker');
}

describe('formatContextMeter', () => {
  it("should say there is no status, not throw, for a value that is none (an empty status() list's first entry)", () => {
    expect(formatContextMeter(undefined as never)).toBe('no status');
    expect(formatContextMeter(null as never)).toBe('no status');
  });

  it('should count the turns left in words that agree with the number', () => {
    expect(formatContextMeter(statusAt(5_000))).toBe('5K/8K (62.5%) ~1 turn left');
    expect(formatContextMeter(statusAt(4_000))).toBe('4K/8K (50%) ~2 turns left');
  });

  it("should show the count its percentage is of: the last request sent, not the provider's count of the one before", () => {
    const usage = { lastCalibrated: 9_208, realPromptTokens: 6_000, window: 200_000, modelCalls: 3 };
    const status = agentStatus({ [stateKeysFor('worker').usage]: usage }, 'worker');
    expect(formatContextMeter(status)).toBe('9K/200K (4.6%)');
  });
});
