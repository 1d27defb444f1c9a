/**
 * Step 5 of the decision: before any summary, mask old tool results, with no
 * model call. Not on the sliding window's schedule (which compacts for
 * structure) nor for a requested compaction (which must summarize).
 */
import { planMasking } from './plan-masking.js';
import { chooseMaskStart } from './mask-start.js';
import { maskKeepFrom } from './mask-observations.js';
import type { ReductionTerms } from './room-reduction-cost.js';
import type { SummaryCoverage } from '../split/coverage.js';
import type { CompactionReason } from '../budget/compaction-reason.js';
import type { MaskRecord } from './mask-record.js';
import { anchorAt } from '../state/watermark.js';
import { coveredContentsAt } from '../state/covered-contents.js';
import { viewEstimate } from '../split/coverage.js';
import {
  maskedTokensAt,
  maskedView,
  maskingFrom,
  measuredOf,
  viewTailTokens,
  type RequestView,
  type StoredView,
  type ViewSource,
} from './request-view.js';

/** What a masking is computed from. */
export interface MaskStepInput {
  readonly source: ViewSource;
  readonly coverage: SummaryCoverage;
  readonly maskedUpTo: number;
  /** Where the live mask starts (its record's `start`; 0 when it has none). */
  readonly maskedFrom?: number | undefined;
  readonly keepRecent: number;
  /** Heuristic tokens of the fixed part and of the summary as injected. */
  readonly fixedTokens: number;
  readonly summaryTokens: number;
  /** Heuristic tokens the contents should come down to. */
  readonly target: number;
  readonly fingerprints: readonly string[];
  readonly previous: MaskRecord | undefined;
  readonly now: number;
  /** The view as observed (`storedView` of `source` up to `maskedUpTo`): the masking extends it instead of building it again. */
  readonly view?: RequestView | undefined;
}

export interface MaskForRoomInput extends MaskStepInput {
  readonly reason: CompactionReason;
  readonly manual: boolean;
}

/** What pricing a masking's start needs (mask-start.ts): without it the masking keeps the live mask's start. */
interface StartTerms {
  /** Calibrated tokens per heuristic token. */
  readonly factor: number;
  readonly terms: ReductionTerms;
}

export interface MaskStep extends RequestView {
  /** The masked range is [start, upTo): start is the summary's watermark unless the masking starts later. */
  readonly start: number;
  readonly upTo: number;
  /** Heuristic estimate of the masked request. */
  readonly estimate: number;
  /** The new mask watermark to persist. */
  readonly record: MaskRecord;
  /** Masking alone reaches the target: no summary is made. */
  readonly enough: boolean;
}

export function maskForRoom(input: MaskForRoomInput, startTerms?: StartTerms): MaskStep | undefined {
  if (input.reason === 'schedule' || input.manual || input.keepRecent <= 0) return undefined;
  return maskStep(input, undefined, startTerms);
}

/** Where the live mask starts: past the summary's watermark only while it masks something there. */
function liveFrom(input: MaskStepInput): number {
  const from = Math.max(input.coverage.covered, input.maskedFrom ?? 0);
  return input.maskedUpTo > from ? from : input.coverage.covered;
}

/** Where the new masking starts: the live mask's start, or the cheapest one when it is priced. */
function startOf(
  input: MaskStepInput,
  upTo: number,
  meetsTarget: (contentTokens: number) => boolean,
  startTerms: StartTerms | undefined,
): number {
  const { source, coverage } = input;
  const from = liveFrom(input);
  if (!startTerms || upTo <= Math.max(coverage.covered, input.maskedUpTo)) return from;
  return chooseMaskStart({
    tokens: source.tokens,
    maskedTokensAt: (index) => maskedTokensAt(source, index),
    covered: coverage.covered,
    masked: input.maskedUpTo > from ? { from, upTo: input.maskedUpTo } : undefined,
    upTo,
    headTokens: input.fixedTokens + input.summaryTokens + keptTokensOf(input),
    meetsTarget,
    ...startTerms,
  });
}

/** Tokens of the message a summary keeps out of what it covers. */
const keptTokensOf = (input: MaskStepInput): number =>
  input.coverage.keptAt === undefined ? 0 : (input.source.tokens[input.coverage.keptAt] ?? 0);

/** The observed view, when it is the one of this source and mask with a count per content. */
function storedOf(input: MaskStepInput): StoredView | undefined {
  const { view, source } = input;
  if (!view || view.viewTokens.length !== source.tokens.length || source.covered !== input.coverage.covered)
    return undefined;
  return { view, maskedUpTo: input.maskedUpTo };
}

/** The measure cache's snapshot `input.fingerprints` is, when it is this call's (request-view.ts: `measuredOf`). */
function snapshotOf(input: MaskStepInput): number | undefined {
  return input.fingerprints === input.source.fingerprints ? measuredOf(input.source)?.change.generation : undefined;
}

/** Masks up to `upTo` (by default all but the `keepRecent` latest tool results of the in-flight turn). */
export function maskStep(
  input: MaskStepInput,
  upTo: number | undefined,
  startTerms?: StartTerms,
): MaskStep | undefined {
  const { source, coverage, summaryTokens } = input;
  const keptTokens = keptTokensOf(input);
  const meetsTarget = (contentTokens: number): boolean => summaryTokens + keptTokens + contentTokens <= input.target;
  const end = upTo ?? maskKeepFrom(source.contents, input.keepRecent);
  const maskedFrom = liveFrom(input);
  const start = startOf(input, end, meetsTarget, startTerms);
  // The observed view is extended only while the mask keeps its start.
  const stored = start === maskedFrom ? storedOf(input) : undefined;
  const plan = planMasking({
    contents: source.contents,
    tokens: source.tokens,
    covered: coverage.covered,
    maskedUpTo: input.maskedUpTo,
    maskedFrom,
    start,
    maskedTokensAt: (index) => maskedTokensAt(source, index),
    maskedTail: stored && viewTailTokens(stored.view, coverage.covered),
    keepRecent: input.keepRecent,
    upTo: end,
    meetsTarget,
  });
  if (!plan) return undefined;
  const masked = maskedView(maskingFrom(source, start), plan.upTo, stored);
  const anchor = anchorAt((index) => input.fingerprints[index], plan.upTo);
  return {
    ...masked,
    start,
    upTo: plan.upTo,
    estimate: viewEstimate(input.fixedTokens, summaryTokens, masked.viewTokens, coverage),
    record: {
      upTo: plan.upTo,
      // Only a start past the summary's watermark is kept: one at it is today's mask (and moot once a summary passes it).
      ...(start > coverage.covered && { start }),
      anchor,
      contents: coveredContentsAt(input.fingerprints, plan.upTo, source.placeholders?.coveredHead, snapshotOf(input)),
      maskings: (input.previous?.maskings ?? 0) + 1,
      createdAt: input.now,
    },
    enough: plan.enough,
  };
}
