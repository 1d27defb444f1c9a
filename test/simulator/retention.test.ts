/** The retention experiment: ContextGuard keeps every planted fact verbatim (through maskings and summaries); ADK's compactor, with the same summarizer, does not. */
import { describe, expect, it } from 'vitest';
import { RETENTION_FACTS, runRetention } from '../../simulator/retention.js';

describe('retention of planted facts', () => {
  it('should keep every fact with both ContextGuard strategies and fewer with the baselines', async () => {
    const results = await runRetention();
    const byStrategy = new Map(results.map((result) => [result.strategy, result]));
    for (const name of ['guard-threshold', 'guard-sliding-window']) {
      const guard = byStrategy.get(name)!;
      expect(guard.retained).toBe(RETENTION_FACTS);
      expect(guard.finalRequestAccepted).toBe(true);
      expect(guard.overflows).toBe(0);
      // The guard reduced the context more than once: masking first, a summary where masking was not enough.
      expect(guard.compactions + guard.maskings).toBeGreaterThan(1);
    }
    // The sliding window summarizes on its schedule whatever masking achieves: facts went through summaries.
    expect(byStrategy.get('guard-sliding-window')!.compactions).toBeGreaterThan(0);
    const adk = byStrategy.get('adk-token-based')!;
    expect(adk.compactions).toBeGreaterThan(0);
    expect(adk.retained).toBeLessThan(RETENTION_FACTS);
    // Without compaction the facts are all in the request, but the model rejects it.
    expect(byStrategy.get('none')!.finalRequestAccepted).toBe(false);
  }, 180_000);
});
