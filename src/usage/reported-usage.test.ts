import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROPERTY_RUNS } from '../../test/support/arbitraries.js';
import { readReportedUsage } from './reported-usage.js';

describe('readReportedUsage', () => {
  it("should add the cached tokens to a prompt count that leaves them out (Anthropic's input_tokens)", () => {
    const read = readReportedUsage({
      promptTokenCount: 5_000,
      cachedContentTokenCount: 190_000,
      candidatesTokenCount: 80,
    });
    expect(read).toEqual({
      usage: { promptTokenCount: 195_000, cachedContentTokenCount: 190_000, candidatesTokenCount: 80 },
      cachedOutsidePrompt: true,
    });
  });

  it('should leave a report whose prompt includes its cached tokens (Gemini, OpenAI) as it is', () => {
    const gemini = { promptTokenCount: 195_000, cachedContentTokenCount: 190_000 };
    expect(readReportedUsage(gemini)).toEqual({ usage: gemini, cachedOutsidePrompt: false });
    const equal = { promptTokenCount: 4_096, cachedContentTokenCount: 4_096 };
    expect(readReportedUsage(equal).cachedOutsidePrompt).toBe(false);
  });

  it('should leave a report with a count that is missing or not a token count as it is', () => {
    for (const reported of [
      { cachedContentTokenCount: 10 },
      { promptTokenCount: 10 },
      { promptTokenCount: Number.NaN, cachedContentTokenCount: 10 },
      { promptTokenCount: 10, cachedContentTokenCount: -50 },
      { promptTokenCount: 10, cachedContentTokenCount: '900' as unknown as number },
    ])
      expect(readReportedUsage(reported)).toEqual({ usage: reported, cachedOutsidePrompt: false });
  });

  it('should never read a prompt below its cached part or below the count reported', () => {
    fc.assert(
      fc.property(fc.nat(1e7), fc.nat(1e7), (prompt, cached) => {
        const { usage } = readReportedUsage({ promptTokenCount: prompt, cachedContentTokenCount: cached });
        expect(usage.promptTokenCount).toBeGreaterThanOrEqual(Math.max(prompt, cached));
      }),
      PROPERTY_RUNS,
    );
  });
});
