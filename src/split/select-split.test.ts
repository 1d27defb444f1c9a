import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Content } from '@google/genai';
import { HEAVY_PROPERTY_RUNS, measuredConversation } from '../../test/support/arbitraries.js';
import { foreignContext, functionCall, functionResponse, modelText, userText } from '../../test/support/builders.js';
import { hasFunctionResponse, isValidSplit, latestUserRequestIndex } from '../content/content-shape.js';
import { selectSplit } from './select-split.js';

/**
 *  index  content                    tokens
 *  0      user: first request          10
 *  1      model: answer                10
 *  2      user: current request        10
 *  3      model: call fetch_logs       10
 *  4      user: fetch_logs result     100
 *  5      model: answer                10
 */
const CONTENTS: Content[] = [
  userText('first request'),
  modelText('answer'),
  userText('current request'),
  functionCall('fetch_logs', { size: 3_000 }),
  functionResponse('fetch_logs', { logs: '...' }),
  modelText('answer'),
];
const TOKENS = [10, 10, 10, 10, 100, 10];

const splitScenario = measuredConversation.chain(({ contents, tokens }) =>
  fc.record({
    contents: fc.constant(contents),
    tokens: fc.constant(tokens),
    covered: fc.nat(contents.length),
    tailBudget: fc.nat(6_000),
  }),
);

function suffixTokens(tokens: readonly number[], from: number): number {
  return tokens.slice(from).reduce((sum, value) => sum + value, 0);
}

/** The user's message a split keeps before itself: the latest request, when not yet summarized and before the split. */
function keptBefore(input: { contents: readonly Content[]; covered: number }, split: number): number | undefined {
  const request = latestUserRequestIndex(input.contents);
  return request >= input.covered && request >= 0 && split > request ? request : undefined;
}

/** Tokens a split leaves verbatim: its kept message and its suffix. */
function tailOf(
  input: { contents: readonly Content[]; tokens: readonly number[]; covered: number },
  split: number,
): number {
  const kept = keptBefore(input, split);
  return suffixTokens(input.tokens, split) + (kept === undefined ? 0 : (input.tokens[kept] ?? 0));
}

/** Valid splits from the lowest on, without the one right after a kept message (the same view as the split at it). */
function candidateSplits(input: { contents: readonly Content[]; covered: number }): number[] {
  const lowest = Math.max(input.covered + 1, latestUserRequestIndex(input.contents));
  return Array.from({ length: Math.max(0, input.contents.length - lowest) }, (_, i) => lowest + i).filter((split) => {
    const kept = keptBefore(input, split);
    return isValidSplit(input.contents, split) && !(kept !== undefined && split === kept + 1);
  });
}

describe('selectSplit', () => {
  describe('histories with nothing new to summarize', () => {
    it('should return undefined for an empty history and for a single content', () => {
      expect(selectSplit({ contents: [], tokens: [], covered: 0, tailBudget: 1_000 })).toBeUndefined();
      expect(selectSplit({ contents: [userText('hi')], tokens: [5], covered: 0, tailBudget: 0 })).toBeUndefined();
    });

    it('should return undefined when the summary already covers all but the last content', () => {
      expect(selectSplit({ contents: CONTENTS, tokens: TOKENS, covered: 5, tailBudget: 0 })).toBeUndefined();
    });
  });

  describe('choosing the split', () => {
    it('should keep the whole in-flight turn when it fits', () => {
      // From the current request (index 2): 10 + 10 + 100 + 10 = 130 <= 130
      expect(selectSplit({ contents: CONTENTS, tokens: TOKENS, covered: 0, tailBudget: 130 })).toEqual({
        split: 2,
        fits: true,
        tailTokens: 130,
      });
    });

    it('should keep as much of the in-flight turn as fits, never starting at a tool result, and always its request', () => {
      // From 2: 130 > 120; 3 keeps the same contents as 2; 4 is a tool result; 5 with the request: 10 + 10 <= 120
      expect(selectSplit({ contents: CONTENTS, tokens: TOKENS, covered: 0, tailBudget: 120 })).toEqual({
        split: 5,
        fits: true,
        tailTokens: 20,
        keptAt: 2,
      });
      expect(selectSplit({ contents: CONTENTS, tokens: TOKENS, covered: 0, tailBudget: 20 })).toEqual({
        split: 5,
        fits: true,
        tailTokens: 20,
        keptAt: 2,
      });
    });

    it("should keep this turn's own message, not the latest, when another turn runs at the same time", () => {
      // This turn's message at 0, another turn's at 2: the split may pass both, keeping 0 (review 15: keeping
      // everything from 0 on let a long turn grow until the provider rejected it).
      expect(selectSplit({ contents: CONTENTS, tokens: TOKENS, covered: 0, tailBudget: 20, ownRequest: 0 })).toEqual({
        split: 5,
        fits: true,
        tailTokens: 20,
        keptAt: 0,
      });
    });

    it('should keep the request the current summary keeps, and summarize it once a later request is in flight', () => {
      // The summary covers [0, 3) but keeps 2: a later compaction in the same turn keeps it again.
      expect(selectSplit({ contents: CONTENTS, tokens: TOKENS, covered: 3, keptAt: 2, tailBudget: 10_000 })).toEqual({
        split: 5,
        fits: true,
        tailTokens: 20,
        keptAt: 2,
      });
      const nextTurn = [...CONTENTS, userText('next request'), modelText('answer')];
      expect(
        selectSplit({ contents: nextTurn, tokens: [...TOKENS, 10, 10], covered: 3, keptAt: 2, tailBudget: 10_000 }),
      ).toEqual({ split: 6, fits: true, tailTokens: 20 });
    });

    it('should summarize older turns even when they would fit', () => {
      // Everything is 150 tokens, but the tail keeps at most the in-flight turn, from index 2.
      expect(selectSplit({ contents: CONTENTS, tokens: TOKENS, covered: 0, tailBudget: 10_000 })?.split).toBe(2);
    });

    it('should return the smallest tail, marked as not fitting, when nothing fits', () => {
      expect(selectSplit({ contents: CONTENTS, tokens: TOKENS, covered: 0, tailBudget: 5 })).toEqual({
        split: 5,
        fits: false,
        tailTokens: 20,
        keptAt: 2,
      });
    });

    it('should move past what the current summary covers', () => {
      // covered 3: the lowest split is 4, a tool result, so 5
      expect(selectSplit({ contents: CONTENTS, tokens: TOKENS, covered: 3, tailBudget: 10_000 })).toEqual({
        split: 5,
        fits: true,
        tailTokens: 10,
      });
    });

    it('should never keep a tool result whose call is summarized, even when that leaves nothing to split at', () => {
      const midChain = [userText('go'), functionCall('f'), functionResponse('f', { ok: true })];
      // Split 0 is not past the summary; split 1 with the request kept is the same as split 0; split 2 would
      // orphan the result; split 3 would keep nothing. The request alone is never summarized to make room.
      expect(selectSplit({ contents: midChain, tokens: [5, 5, 500], covered: 0, tailBudget: 10 })).toBeUndefined();
      expect(selectSplit({ contents: midChain, tokens: [5, 5, 500], covered: 1, tailBudget: 10 })).toBeUndefined();
      const older = [userText('earlier'), modelText('answer'), ...midChain];
      expect(selectSplit({ contents: older, tokens: [5, 5, 5, 5, 500], covered: 0, tailBudget: 10 })).toEqual({
        split: 2,
        fits: false,
        tailTokens: 510,
      });
    });

    it('should start from the oldest content after the summary when there is no user request', () => {
      const toolsOnly = [modelText('a'), modelText('b'), modelText('c')];
      expect(selectSplit({ contents: toolsOnly, tokens: [1, 1, 1], covered: 0, tailBudget: 100 })).toEqual({
        split: 1,
        fits: true,
        tailTokens: 2,
      });
    });

    it('should keep what the agent was just handed while that fits the room, over the tail budget', () => {
      // The sixty-first outside trial: a LoopAgent's writer on 8k; the round's result was summarized, its "said" kept.
      const round: Content[] = [
        userText('Write the report, one section a round.'),
        modelText('Draft 1.'),
        foreignContext('[researcher] called tool `search` with parameters: {}'),
        foreignContext('[researcher] tool `search` returned result: {"figure":"FIG-2"}'),
        foreignContext('[researcher] said: Fetched round 2.'),
      ];
      const tokens = [10, 10, 10, 500, 10];
      const base = { contents: round, tokens, covered: 0, tailBudget: 100 };
      expect(selectSplit(base)?.split).toBe(4);
      expect(selectSplit({ ...base, handed: { from: 2, tailRoom: 600 } })).toEqual({
        split: 2,
        fits: true,
        tailTokens: 530,
        keptAt: 0,
      });
      // Over the room, it is summarized as before.
      expect(selectSplit({ ...base, handed: { from: 2, tailRoom: 500 } })?.split).toBe(4);
    });
  });

  describe('laws', () => {
    it('should never keep a function response without its call', () => {
      fc.assert(
        fc.property(splitScenario, (input) => {
          const choice = selectSplit(input);
          if (choice) expect(hasFunctionResponse(input.contents[choice.split])).toBe(false);
        }),
        HEAVY_PROPERTY_RUNS,
      );
    });

    it('should always make progress past what the summary covers, and keep something', () => {
      fc.assert(
        fc.property(splitScenario, (input) => {
          const choice = selectSplit(input);
          if (choice) {
            expect(choice.split).toBeGreaterThan(input.covered);
            expect(choice.split).toBeLessThan(input.contents.length);
          }
        }),
        HEAVY_PROPERTY_RUNS,
      );
    });

    it("should keep the in-flight turn's request whenever the summary has not covered it", () => {
      fc.assert(
        fc.property(splitScenario, (input) => {
          const choice = selectSplit(input);
          const request = latestUserRequestIndex(input.contents);
          if (choice && request >= input.covered)
            expect(choice.split <= request || choice.keptAt === request).toBe(true);
        }),
        HEAVY_PROPERTY_RUNS,
      );
    });

    it('should keep at most the in-flight turn', () => {
      fc.assert(
        fc.property(splitScenario, (input) => {
          const choice = selectSplit(input);
          if (choice) expect(choice.split).toBeGreaterThanOrEqual(latestUserRequestIndex(input.contents));
        }),
        HEAVY_PROPERTY_RUNS,
      );
    });

    it('should report the tokens of the kept tail and whether they fit', () => {
      fc.assert(
        fc.property(splitScenario, (input) => {
          const choice = selectSplit(input);
          if (choice) {
            expect(choice.tailTokens).toBe(tailOf(input, choice.split));
            expect(choice.fits).toBe(choice.tailTokens <= input.tailBudget);
          }
        }),
        HEAVY_PROPERTY_RUNS,
      );
    });

    it('should keep the largest tail that fits, or else the smallest tail there is', () => {
      fc.assert(
        fc.property(splitScenario, (input) => {
          const choice = selectSplit(input);
          if (!choice) return;
          const candidates = candidateSplits(input);
          if (choice.fits) {
            // No earlier valid split fits: the chosen tail is the largest that does.
            for (const split of candidates.filter((split) => split < choice.split))
              expect(tailOf(input, split)).toBeGreaterThan(input.tailBudget);
          } else {
            expect(choice.split).toBe(candidates[candidates.length - 1]);
          }
        }),
        HEAVY_PROPERTY_RUNS,
      );
    });

    it('should return undefined only when no valid split exists past the summary', () => {
      fc.assert(
        fc.property(splitScenario, (input) => {
          if (selectSplit(input) !== undefined) return;
          expect(candidateSplits(input)).toEqual([]);
        }),
        HEAVY_PROPERTY_RUNS,
      );
    });
  });
});
