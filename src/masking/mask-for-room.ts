/**
 * Step 5 of the decision: before any summary, mask old tool results, with no
 * model call. Not on the sliding window's schedule (which compacts for
 * structure) nor for a requested compaction (which must summarize).
 */
import { planMasking } from './plan-masking.js';
import type { SummaryCoverage } from '../split/coverage.js';
import type { CompactionReason } from '../budget/compaction-reason.js';
import type { MaskRecord } from './mask-record.js';
import { anchorAt } from '../state/watermark.js';
import { coveredContentsAt } from '../state/covered-contents.js';
import { viewEstimate } from '../split/coverage.js';
import {
  maskedTokensAt,
  maskedView,
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

export interface MaskStep extends RequestView {
  readonly upTo: number;
  /** Heuristic estimate of the masked request. */
  readonly estimate: number;
  /** The new mask watermark to persist. */
  readonly record: MaskRecord;
  /** Masking alone reaches the target: no summary is made. */
  readonly enough: boolean;
}

export function maskForRoom(input: MaskForRoomInput): MaskStep | undefined {
  if (input.reason === 'schedule' || input.manual || input.keepRecent <= 0) return undefined;
  return maskStep(input, undefined);
}

/** The observed view, when it is the one of this source and mask with a count per content. */
function storedOf(input: MaskStepInput): StoredView | undefined {
  const { view, source } = input;
  if (!view || view.viewTokens.length !== source.tokens.length || source.covered !== input.coverage.covered)
    return undefined;
  return { view, maskedUpTo: input.maskedUpTo };
}

/** Masks up to `upTo` (by default all but the `keepRecent` latest tool results of the in-flight turn). */
export function maskStep(input: MaskStepInput, upTo: number | undefined): MaskStep | undefined {
  const { source, coverage, summaryTokens } = input;
  const stored = storedOf(input);
  const keptTokens = coverage.keptAt === undefined ? 0 : (source.tokens[coverage.keptAt] ?? 0);
  const plan = planMasking({
    contents: source.contents,
    tokens: source.tokens,
    covered: coverage.covered,
    maskedUpTo: input.maskedUpTo,
    maskedTokensAt: (index) => maskedTokensAt(source, index),
    maskedTail: stored && viewTailTokens(stored.view, coverage.covered),
    keepRecent: input.keepRecent,
    upTo,
    meetsTarget: (contentTokens) => summaryTokens + keptTokens + contentTokens <= input.target,
  });
  if (!plan) return undefined;
  const masked = maskedView(source, plan.upTo, stored);
  const anchor = anchorAt((index) => input.fingerprints[index], plan.upTo);
  return {
    ...masked,
    upTo: plan.upTo,
    estimate: viewEstimate(input.fixedTokens, summaryTokens, masked.viewTokens, coverage),
    record: {
      upTo: plan.upTo,
      anchor,
      contents: coveredContentsAt((index) => input.fingerprints[index], plan.upTo),
      maskings: (input.previous?.maskings ?? 0) + 1,
      createdAt: input.now,
    },
    enough: plan.enough,
  };
}
