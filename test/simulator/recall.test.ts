/** The recall experiment: with the tool the model recovers the exact detail the summaries lost; without it, it cannot. */
import { describe, expect, it } from 'vitest';
import { PLANTED_CODE, runRecall } from '../../simulator/recall.js';

describe('recall of a detail the summaries lost', () => {
  it('should recover the exact value with recall_history and not without it', async () => {
    const [withTool, without] = await runRecall();
    expect(withTool!.lostFromContext).toBe(true);
    expect(without!.lostFromContext).toBe(true);
    expect(withTool!.recovered).toBe(true);
    expect(withTool!.answer).toContain(PLANTED_CODE);
    expect(withTool!.recallCalls).toBeGreaterThan(0);
    expect(without!.recovered).toBe(false);
    expect(withTool!.overflows + without!.overflows).toBe(0);
  }, 120_000);
});
