/**
 * Step 6 of the decision: which contents the new summary covers, if any.
 * A compaction for room must be able to make the request smaller: covering a
 * single short message (next to an oversized system prompt, say) would grow
 * the request and call the summarizer for nothing, so shrinking is the only
 * remedy then. The sliding window's schedule compacts for structure, not room,
 * and is exempt. After a masking, a summary is made only when what it would
 * replace is larger than a summary.
 */
import type { Content } from '@google/genai';
import { MIN_SUMMARY_TOKENS, SUMMARY_FRAMING_TOKENS } from '../budget/compaction-plan.js';
import { latestUserRequestIndex } from '../content/content-shape.js';
import { selectSplit } from './select-split.js';
import { newlyCovered, type SummaryCoverage } from './coverage.js';
import type { CompactionReason } from '../budget/compaction-reason.js';

/** Below this, what a compaction would add to an existing summary cannot pay for a summarizer call. */
export const MIN_NEWLY_COVERED_TOKENS = 32;

export interface ChooseSplitInput {
  readonly contents: readonly Content[];
  /** Tokens of the view (masked where masked). */
  readonly viewTokens: readonly number[];
  readonly coverage: SummaryCoverage;
  readonly reason: CompactionReason;
  readonly heldBack: boolean;
  /** Set when this call masked; `enough` when masking alone reached the target. */
  readonly masking: { readonly enough: boolean } | undefined;
  readonly hasSummary: boolean;
  readonly summaryCap: number;
  readonly tailBudget: number;
  /** The most tokens a tail may keep and still bring the request under the threshold. @default `tailBudget` */
  readonly tailRoom?: number | undefined;
  /** Start of the sliding window's overlap, used on its schedule. */
  readonly keepFrom: number | undefined;
  /** The invocation's own message when another turn runs at the same time: kept in place of the latest one. */
  readonly ownRequest?: number | undefined;
}

export interface Split {
  /** The coverage after this compaction. */
  readonly coverage: SummaryCoverage;
  /** Indexes newly summarized, oldest first. */
  readonly toCover: readonly number[];
}

/**
 * The least gain (heuristic tokens) that pays for a summary. A first summary is sent with its framing: covering
 * less than the smallest summary asked for and its framing cannot make the request smaller (review 7: the 63
 * tokens of a transfer's call and answer summarized on a sub-agent's first call, and the summary discarded).
 */
export function minimumGain(masked: boolean, hasSummary: boolean, summaryCap: number): number {
  if (masked) return summaryCap + SUMMARY_FRAMING_TOKENS;
  return hasSummary ? MIN_NEWLY_COVERED_TOKENS : MIN_SUMMARY_TOKENS + SUMMARY_FRAMING_TOKENS;
}

/**
 * Where what the agent was just handed starts: after its latest content of the turn in flight (its answer or its
 * call, not a thought alone; other agents' contents reach it as a user's), or after the user's message (this
 * invocation's own, when another turn runs at the same time) when it has none yet.
 */
function handedFrom(contents: readonly Content[], ownRequest: number | undefined): number {
  const request = ownRequest ?? latestUserRequestIndex(contents);
  for (let i = contents.length - 1; i > request; i--) {
    const content = contents[i];
    if (content?.role === 'model' && content.parts?.some((part) => !part.thought)) return i + 1;
  }
  return request + 1;
}

export function chooseSplit(input: ChooseSplitInput): Split | undefined {
  const { coverage, reason } = input;
  // On schedule the window keeps its overlap turns; under token pressure it keeps what fits, like the threshold.
  const keepFrom = reason === 'schedule' ? input.keepFrom : undefined;
  const tailBudget = keepFrom === undefined ? input.tailBudget : Number.POSITIVE_INFINITY;
  const { covered, keptAt } = coverage;
  const candidate = selectSplit({
    contents: input.contents,
    tokens: input.viewTokens,
    covered,
    keptAt,
    tailBudget,
    keepFrom,
    ownRequest: input.ownRequest,
    handed: { from: handedFrom(input.contents, input.ownRequest), tailRoom: input.tailRoom ?? tailBudget },
  });
  if (!candidate || input.heldBack || input.masking?.enough === true) return undefined;
  const next: SummaryCoverage = { covered: candidate.split, keptAt: candidate.keptAt };
  const toCover = newlyCovered(coverage, next);
  const gain = toCover.reduce((total, index) => total + (input.viewTokens[index] ?? 0), 0);
  if (reason !== 'schedule' && gain <= minimumGain(input.masking !== undefined, input.hasSummary, input.summaryCap))
    return undefined;
  return { coverage: next, toCover };
}
