/**
 * Step 5b: when a masking alone would reach the room, whether a summary made now costs less per
 * call than that masking (masking/room-reduction-cost.ts): the figures of both candidates, read
 * from the masked view and the split a summary would take.
 */
import type { Content } from '@google/genai';
import type { CompactionPlan } from '../budget/compaction-plan.js';
import { latestUserRequestIndex } from '../content/content-shape.js';
import { DEFAULT_CACHED_PRICE_RATIO, DEFAULT_OUTPUT_PRICE_RATIO } from '../cost/cache-terms.js';
import type { MaskStep } from '../masking/mask-for-room.js';
import {
  deeperPays,
  growthPerCall,
  type ReductionCandidate,
  type ReductionTerms,
} from '../masking/room-reduction-cost.js';
import { rewrittenTokens } from '../masking/mask-start.js';
import { keptLeadTokens } from '../summary/inject-summary.js';
import { SUMMARY_FRAMING_TOKENS } from '../budget/compaction-plan.js';
import { viewEstimate } from '../split/coverage.js';
import type { Split } from '../split/choose-split.js';
import { continuationInstruction } from '../summary/summary-from-request.js';
import type { GuardRequestInput } from './contract.js';
import { leadingRequest } from './leading-request.js';
import type { Observed } from './observe.js';

const sum = (tokens: readonly number[], from: number, to = tokens.length): number => {
  let total = 0;
  for (let i = Math.max(0, from); i < to; i++) total += tokens[i] ?? 0;
  return total;
};

/** Model contents of the in-flight turn (its steps so far) and the tokens that turn added. */
function inFlightGrowth(
  contents: readonly Content[],
  viewTokens: readonly number[],
): { tokens: number; steps: number } {
  const start = latestUserRequestIndex(contents);
  if (start < 0) return { tokens: 0, steps: 0 };
  const steps = contents.slice(start + 1).filter((content) => content.role === 'model').length;
  return { tokens: sum(viewTokens, start + 1), steps };
}

/** The first content the masking changes (a new placeholder), from `from` on. */
function firstChanged(before: readonly number[], after: readonly number[], from: number): number {
  let index = Math.max(0, from);
  while (index < after.length && before[index] === after[index]) index++;
  return index;
}

/** The masking alone: rewritten from its first new placeholder on, whole when the prefix before it is too short to be cached. */
function shallowCandidate(masking: MaskStep, firstMasked: number, factor: number): ReductionCandidate {
  const after = masking.estimate * factor;
  return {
    after,
    rewritten: rewrittenTokens(after, after - sum(masking.viewTokens, firstMasked) * factor),
    summarizerInput: 0,
    summaryOutput: 0,
  };
}

/** Tokens the request keeps ahead of a new summary: the fixed part, and the user's message when it stays first. */
function unchangedHead(observed: Observed, split: Split, viewTokens: readonly number[]): number {
  const { summary, coverage } = observed.located;
  const previous = { summarized: summary !== undefined, keptAt: coverage.keptAt };
  return observed.fixedTokens + keptLeadTokens(previous, split.coverage.keptAt, viewTokens);
}

/** The masking and a summary: everything after the head is new, and the summarizer reads what it covers. */
function deepCandidate(input: DeepInput): ReductionCandidate {
  const { observed, masking, split, plan } = input;
  const factor = observed.measure.factor;
  const summaryTokens = plan.summaryCap + SUMMARY_FRAMING_TOKENS;
  const after = viewEstimate(observed.fixedTokens, summaryTokens, masking.viewTokens, split.coverage);
  return {
    after: after * factor,
    rewritten: rewrittenTokens(after * factor, unchangedHead(observed, split, masking.viewTokens) * factor),
    ...summarizerReads(input),
    summaryOutput: plan.summaryCap * factor,
  };
}

/**
 * What the summary request reads: a continuation of the agent's request reads its leading part,
 * which the agent's previous call cached, and the instruction; the guard's own prompt reads the
 * covered contents and the previous summary, all at the full price.
 */
function summarizerReads(deep: DeepInput): Pick<ReductionCandidate, 'summarizerInput' | 'summarizerCachedInput'> {
  const { input, observed, masking, split, plan } = deep;
  const factor = observed.measure.factor;
  const leading = leadingRequest(input, observed, split);
  const instruction = continuationInstruction(leading, plan.summaryCap, input.tokenizer);
  if (leading && instruction !== undefined)
    return {
      summarizerInput: input.tokenizer.count(instruction) * factor,
      summarizerCachedInput: leading.tokens * leading.factor,
    };
  const covered = split.toCover.reduce((total, index) => total + (masking.viewTokens[index] ?? 0), 0);
  return { summarizerInput: (covered + observed.measure.summaryTokens) * factor };
}

interface DeepInput {
  readonly input: GuardRequestInput;
  readonly observed: Observed;
  readonly masking: MaskStep;
  /** The split a summary after this masking would take. */
  readonly split: Split;
  readonly plan: CompactionPlan;
}

/** The terms of a room reduction on this call (masking/room-reduction-cost.ts), the growth per call read from `viewTokens`. */
export function reductionTerms(
  input: GuardRequestInput,
  observed: Observed,
  viewTokens: readonly number[],
): ReductionTerms {
  const turn = inFlightGrowth(input.contents, viewTokens);
  return {
    threshold: observed.measure.budget.threshold,
    growthPerCall: growthPerCall({
      averageTurnTokens: input.usage.averageTurnTokens,
      modelCalls: input.usage.modelCalls,
      invocations: input.usage.invocations,
      inFlightTokens: turn.tokens * observed.measure.factor,
      inFlightSteps: turn.steps,
    }),
    cachedPriceRatio: input.cachedPriceRatio ?? DEFAULT_CACHED_PRICE_RATIO,
    outputPriceRatio: input.outputPriceRatio ?? DEFAULT_OUTPUT_PRICE_RATIO,
  };
}

/** Whether to summarize now although the masking alone is enough, because that costs less per call. */
export function summarizeNowPays(deep: DeepInput): boolean {
  const { input, observed, masking } = deep;
  const factor = observed.measure.factor;
  const terms = reductionTerms(input, observed, masking.viewTokens);
  if (!(terms.growthPerCall > 0)) return false;
  // From the summary's watermark: a masking that moves its start earlier changes contents before the live mask's end.
  const firstMasked = firstChanged(observed.view.viewTokens, masking.viewTokens, observed.located.coverage.covered);
  return deeperPays(shallowCandidate(masking, firstMasked, factor), deepCandidate(deep), terms);
}
