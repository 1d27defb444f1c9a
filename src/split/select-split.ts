/**
 * Chooses where a compaction cuts the request contents.
 *
 * Everything before the split is summarized; everything from it on is kept
 * verbatim. The split never orphans a function call or response, always covers
 * at least one content the current summary does not (so a compaction always
 * makes progress and cannot loop), and keeps at most the in-flight turn (from
 * the user's latest request on): older turns are what the summary is for.
 * When the split falls inside the in-flight turn, the user's message of that
 * turn is kept anyway (`keptAt`): only the tool steps between it and the split
 * are summarized. The tail budget is a target for the steps, never a reason to
 * drop the message the model is answering. Within those rules it keeps as much
 * of the in-flight turn as fits the tail budget, but never summarizes what the
 * agent was just handed while keeping it fits the room (`handed`); when not even
 * the smallest tail fits, it returns that smallest tail with `fits: false`, and
 * the caller shrinks it.
 */
import type { Content } from '@google/genai';
import { isValidSplit, latestUserRequestIndex } from '../content/content-shape.js';

interface SelectSplitInput {
  readonly contents: readonly Content[];
  /** Estimated tokens of each content, aligned with `contents`. */
  readonly tokens: readonly number[];
  /** Contents already covered by the current summary (0 when none). */
  readonly covered: number;
  /** Tokens the kept tail may use. */
  readonly tailBudget: number;
  /**
   * Earliest content the tail may start at. Defaults to the user's latest
   * request (keep at most the in-flight turn); the sliding window passes the
   * start of the oldest turn it keeps verbatim.
   */
  readonly keepFrom?: number | undefined;
  /** The content the current summary keeps before its watermark, if any (see split/coverage.ts). */
  readonly keptAt?: number | undefined;
  /**
   * The invocation's own user message when another turn of the session runs at the same time: the message kept in
   * place of the latest one (which may be the other turn's), so this turn's steps can still be summarized (review 15:
   * keeping everything from it on let a long turn grow to a rejection).
   */
  readonly ownRequest?: number | undefined;
  /**
   * Where what this agent was just handed starts (after its latest content of the turn in flight: other agents'
   * results since its latest answer or call), and the most tokens a tail may keep to keep all of it. A split after it
   * is taken only when the tail from it is over `tailRoom` (the sixty-first outside trial: a LoopAgent's writer on 8k
   * drafted a round without the data it had just been handed, summarized to meet `tailBudget`).
   */
  readonly handed?: { readonly from: number; readonly tailRoom: number } | undefined;
}

interface SplitChoice {
  /** Index of the first kept content; `contents.length` keeps nothing. */
  readonly split: number;
  /** Whether the kept tail fits `tailBudget`. */
  readonly fits: boolean;
  readonly tailTokens: number;
  /** The user's message kept verbatim although it is before the split. */
  readonly keptAt?: number | undefined;
}

/**
 * The user's message the split may keep before itself: the latest request,
 * when the current summary has not covered it (it is after the watermark, or
 * it is the message that summary already keeps).
 */
function keepable(request: number, covered: number, keptAt: number | undefined): number | undefined {
  return request >= 0 && (request >= covered || request === keptAt) ? request : undefined;
}

/** The split to compact at, or `undefined` when nothing new can be summarized. */
export function selectSplit(input: SelectSplitInput): SplitChoice | undefined {
  const { contents, tokens, covered, tailBudget } = input;
  const length = contents.length;
  const request = input.ownRequest ?? latestUserRequestIndex(contents);
  const lowest = Math.max(covered + 1, input.keepFrom ?? request);
  const keep = keepable(request, covered, input.keptAt);
  // suffix[i] = tokens of contents[i..]
  const suffix = new Array<number>(length + 1).fill(0);
  for (let i = length - 1; i >= 0; i--) suffix[i] = (suffix[i + 1] ?? 0) + (tokens[i] ?? 0);
  const { handed } = input;
  let smallest: SplitChoice | undefined;
  let keepsHanded: SplitChoice | undefined;
  for (let split = lowest; split <= length - 1; split++) {
    if (!isValidSplit(contents, split)) continue;
    if (keepsHanded && handed && split > handed.from) return keepsHanded;
    const keptAt = keep !== undefined && split > keep ? keep : undefined;
    // Keeping the message and splitting right after it is the split at the message, already tried.
    if (keptAt !== undefined && keptAt >= covered && split === keptAt + 1) continue;
    const tailTokens = (suffix[split] ?? 0) + (keptAt === undefined ? 0 : (tokens[keptAt] ?? 0));
    if (tailTokens <= tailBudget) return { split, fits: true, tailTokens, keptAt };
    smallest = { split, fits: false, tailTokens, keptAt };
    if (handed && split <= handed.from && tailTokens <= handed.tailRoom) keepsHanded = { ...smallest, fits: true };
  }
  return keepsHanded ?? smallest;
}
