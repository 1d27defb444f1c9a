/**
 * When and how far to mask. Masking is tried before a summary whenever a
 * compaction is due for room (the threshold, a rejected request, the sliding
 * window's token trigger): it moves the mask watermark to the oldest of the
 * last `keepRecent` tool results, and it is enough when the request then fits
 * the masking's target (the whole room: see `MASKING_SHARE_OF_ROOM`).
 * Otherwise the summarizer runs as before.
 */
import type { Content } from '@google/genai';
import { maskKeepFrom } from './mask-observations.js';

/** Tokens of the contents from `covered` on, with those in [maskedFrom, maskedUpTo) counted masked. */
export function tailTokens(
  tokens: readonly number[],
  covered: number,
  maskedUpTo: number,
  maskedTokensAt: (index: number) => number,
  maskedFrom = covered,
): number {
  let total = 0;
  for (let i = covered; i < tokens.length; i++)
    total += i >= maskedFrom && i < maskedUpTo ? maskedTokensAt(i) : (tokens[i] ?? 0);
  return total;
}

interface MaskingInput {
  readonly contents: readonly Content[];
  readonly tokens: readonly number[];
  /** Contents covered by the summary. */
  readonly covered: number;
  /** Current mask watermark (0 when nothing is masked). */
  readonly maskedUpTo: number;
  /** Where the current mask starts, and where the new one does (mask-start.ts); both the summary's watermark by default. */
  readonly maskedFrom?: number | undefined;
  readonly start?: number | undefined;
  readonly maskedTokensAt: (index: number) => number;
  /** `tailTokens` under the current mask, when the caller has it (the stored view's counts): then only the newly masked range is read. */
  readonly maskedTail?: number | undefined;
  /** Most recent tool results kept unmasked (at least the latest). */
  readonly keepRecent: number;
  /** Where the masking stops, when the caller decides it; by default `maskKeepFrom(contents, keepRecent)`. */
  readonly upTo?: number | undefined;
  /** Whether a request of this many (heuristic) content tokens meets the compaction's target. */
  readonly meetsTarget: (contentTokens: number) => boolean;
}

interface MaskingPlan {
  /** The new mask watermark. */
  readonly upTo: number;
  /** Content tokens (summary excluded) after masking. */
  readonly tokens: number;
  /** Whether masking alone meets the target, so no summary is needed. */
  readonly enough: boolean;
}

/** What masking [max(covered, maskedUpTo), upTo) changes the tail by: the same sum as two `tailTokens`, over the new range only. */
function newlyMasked(input: MaskingInput, upTo: number): number {
  let change = 0;
  const end = Math.min(upTo, input.tokens.length);
  for (let i = Math.max(input.covered, input.maskedUpTo); i < end; i++)
    change += input.maskedTokensAt(i) - (input.tokens[i] ?? 0);
  return change;
}

/** The masking to apply now, or `undefined` when there is nothing new to mask. */
export function planMasking(input: MaskingInput): MaskingPlan | undefined {
  const upTo = input.upTo ?? maskKeepFrom(input.contents, input.keepRecent);
  if (upTo <= Math.max(input.covered, input.maskedUpTo)) return undefined;
  const { covered, tokens, maskedTokensAt } = input;
  const maskedFrom = Math.max(covered, input.maskedFrom ?? covered);
  const start = Math.max(covered, input.start ?? covered);
  // The stored view's tail holds while the mask keeps its start: then only the new range is read.
  const kept = start === maskedFrom ? input.maskedTail : undefined;
  const before = kept ?? tailTokens(tokens, covered, input.maskedUpTo, maskedTokensAt, maskedFrom);
  const after =
    kept === undefined ? tailTokens(tokens, covered, upTo, maskedTokensAt, start) : kept + newlyMasked(input, upTo);
  // Nothing large enough to mask in the new range: moving the watermark would only churn the prefix.
  if (after >= before) return undefined;
  return { upTo, tokens: after, enough: input.meetsTarget(after) };
}
