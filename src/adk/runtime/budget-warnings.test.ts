import { describe, expect, it } from 'vitest';
import { resolvePolicy } from '../../policy/resolve-policy.js';
import type { ContextGuardOptions } from '../../options.js';
import { CapturingLogger } from '../../testing/index.js';
import { BudgetWarnings } from './budget-warnings.js';

function warnings(options: ContextGuardOptions, window: number): string[] {
  const logger = new CapturingLogger();
  new BudgetWarnings(logger).check(resolvePolicy(options, 'worker'), 'worker', 'm', window, 'registry');
  return logger.matching(/hardLimitRatio/).map((line) => line.message);
}

describe('BudgetWarnings', () => {
  it('should not warn of a hard limit that does not lower the threshold the output reserve sets', () => {
    // threshold 8,000 - max(100, 2,000) = 6,000 = the hard limit min(7,200, 6,000)
    expect(warnings({ bufferTokens: 100, reserveOutputTokens: 2_000, hardLimitRatio: 0.9 }, 8_000)).toEqual([]);
  });

  it("should warn with the budget's own figures when the hard limit lowers the threshold", () => {
    const [message] = warnings({ bufferTokens: 100, reserveOutputTokens: 1_000, hardLimitRatio: 0.8 }, 8_000);
    expect(message).toMatch(
      /caps requests at 6400 tokens .* below the threshold reserveOutputTokens 1000 sets \(7000\)/,
    );
    expect(warnings({ bufferTokens: 100, hardLimitRatio: 0.6 }, 8_000)[0]).toMatch(
      /caps requests at 4800 tokens .* below the threshold bufferTokens 100 sets \(7900\)/,
    );
  });

  it('should name the threshold the budget applies when a too large buffer falls back to the default', () => {
    const logger = new CapturingLogger();
    const policy = resolvePolicy({ bufferTokens: 5_000, hardLimitRatio: 0.6 }, 'worker');
    new BudgetWarnings(logger).check(policy, 'worker', 'm', 8_000, 'learned');
    const [message] = logger.matching(/bufferTokens 5000 is more than/).map((line) => line.message);
    // The default buffer (1,600) would leave 6,400; the hard limit of 0.6 caps it at 4,800 (an outside trial).
    expect(message).toMatch(/default buffer is used \(1600; threshold 4800\)/);
  });
});
