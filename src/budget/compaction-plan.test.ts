import { describe, expect, it } from 'vitest';
import {
  MIN_SUMMARIZER_PROMPT_TOKENS,
  MIN_SUMMARY_TOKENS,
  planCompaction,
  type CompactionPlanInput,
} from './compaction-plan.js';

// Threshold 8,000 calibrated at a factor of 2 is 4,000 heuristic tokens; 500 are fixed: room 3,500.
const INPUT: CompactionPlanInput = {
  threshold: 8_000,
  correction: 2,
  fixedTokens: 500,
  inFlightTokens: 100,
  summaryMaxTokens: 2_000,
  compactTargetRatio: 0.5,
  summarizerWindow: 10_000,
  summarizerInputRatio: 0.5,
};

describe('planCompaction', () => {
  it('should share the room between the summary, its facts and the tail', () => {
    // Summary: a quarter of 3,400 (the room the in-flight message leaves) = 850 tokens, 2,550 characters;
    // facts: half of those characters; tail: half the room (1,750) minus 1.5 x 850 (1,275) and 96 of framing.
    expect(planCompaction(INPUT)).toEqual({
      room: 3_500,
      target: 1_750,
      // Masking alone must bring the contents under the threshold (the room), not to the summary's target.
      maskTarget: 3_500,
      // A prepared summary applied alone must come halfway from the threshold back to the target.
      preparedTarget: 2_625,
      summaryCap: 850,
      summaryMaxChars: 2_550,
      factChars: 1_275,
      // Carried or marked facts: half the characters of a quarter of the whole room (875 tokens).
      factCharsCap: 1_312,
      tailBudget: 379,
      // What an agent was just handed may keep the whole room less the summary's reserve: 3,500 - 1,275 - 96.
      tailRoom: 2_129,
      // Half the summarizer's 10,000 window, in heuristic tokens (2,500), less the summary's cap.
      summarizerPromptTokens: 1_650,
    });
  });

  it('should cap the summary at summaryMaxTokens', () => {
    expect(planCompaction({ ...INPUT, summaryMaxTokens: 100 }).summaryCap).toBe(100);
  });

  it('should keep its floors when there is no room at all', () => {
    const plan = planCompaction({ ...INPUT, fixedTokens: 9_000, summarizerWindow: 100 });
    expect(plan.room).toBe(0);
    expect(plan.summaryCap).toBe(MIN_SUMMARY_TOKENS);
    expect(plan.tailBudget).toBe(0);
    expect(plan.summarizerPromptTokens).toBe(MIN_SUMMARIZER_PROMPT_TOKENS);
  });

  it("should leave the durable facts room for a user's sentence when the summary is at its smallest", () => {
    // Trial 63: the task "ZEPHYR-7731: build the quarterly Zephyr report and keep the total under 40k." (76
    // characters) did not fit the facts' share of a 48-token summary (72 characters) and was lost after turn 1.
    const plan = planCompaction({ ...INPUT, fixedTokens: 9_000 });
    expect(plan.summaryCap).toBe(MIN_SUMMARY_TOKENS);
    expect(plan.factChars).toBeGreaterThanOrEqual(plan.summaryMaxChars);
    expect(plan.factCharsCap).toBeGreaterThanOrEqual(plan.summaryMaxChars);
  });

  it('should set aside room in the tail for the facts it allows', () => {
    // Room 250: the smallest summary (48), its facts' floor (144 characters, 48 tokens) and 96 of framing leave 58.
    const small = planCompaction({ ...INPUT, fixedTokens: 3_750 });
    expect(small.summaryCap).toBe(MIN_SUMMARY_TOKENS);
    expect(small.tailRoom).toBe(58);
  });
});
