/**
 * The last-resort shrink, with the user's current message set apart: every
 * other part is cut first (to what the threshold leaves beside the message),
 * and the message itself, text, images and files, stays verbatim whenever the
 * request then fits under the hard limit. Only a message that cannot fit even
 * so is cut, head+tail with a marker by the same cutter, never dropped: to what
 * the threshold leaves beside the rest, or (`cutToHard`) to what the hard limit
 * leaves.
 * Contents whose counts are given are not counted again.
 */
import type { Content } from '@google/genai';
import { estimateContentTokens } from '../estimate/estimate-content.js';
import type { Tokenizer } from '../estimate/tokenizer.js';
import { latestUserRequestIndex } from '../content/content-shape.js';
import { shrinkContentsToBudget } from './oversized-parts.js';

interface ShrinkAroundRequestInput {
  readonly contents: readonly Content[];
  /** Tokens the contents should use (the threshold's share). */
  readonly budget: number;
  /** Tokens the contents may use at most (the hard limit's share); at least `budget`. */
  readonly hardBudget: number;
  readonly tokenizer: Tokenizer;
  /** Tokens of each content, when known (the rest are estimated). */
  readonly tokens?: readonly number[] | undefined;
  /** Contents cut only after the others (the summary, the user's messages). */
  readonly protect: (content: Content, index: number) => boolean;
  /**
   * Index of the user's current message when the caller knows it: a summary placed after the message it
   * keeps is a later user content. The latest user content otherwise.
   */
  readonly requestAt?: number | undefined;
  /**
   * Cut a message that cannot fit to what `hardBudget` leaves beside the rest, not `budget`: where a rejection of
   * the request is retried with the message cut deeper (a first call held on the estimate, pipeline/fit-request.ts),
   * so a message just over the hard limit loses what is over it, not two thirds of itself. @default false
   */
  readonly cutToHard?: boolean | undefined;
}

export function shrinkAroundRequest(input: ShrinkAroundRequestInput): { contents: Content[]; tokens: number } {
  const { contents, budget, tokenizer, protect, tokens } = input;
  const at = input.requestAt ?? latestUserRequestIndex(contents);
  const request = contents[at];
  if (!request) return shrinkContentsToBudget(contents, budget, tokenizer, { protect, tokens });
  const requestTokens = tokens?.[at] ?? estimateContentTokens(request, tokenizer);
  const others = contents.filter((_, index) => index !== at);
  const rest = shrinkContentsToBudget(others, Math.max(0, budget - requestTokens), tokenizer, {
    protect: (content, index) => protect(content, index < at ? index : index + 1),
    tokens: tokens?.filter((_, index) => index !== at),
  });
  const around = (message: Content): Content[] => [...rest.contents.slice(0, at), message, ...rest.contents.slice(at)];
  if (rest.tokens + requestTokens <= Math.max(budget, input.hardBudget))
    return { contents: around(request), tokens: rest.tokens + requestTokens };
  const room = input.cutToHard === true ? Math.max(budget, input.hardBudget) : budget;
  const cut = shrinkContentsToBudget([request], Math.max(0, room - rest.tokens), tokenizer, {
    tokens: [requestTokens],
  });
  return { contents: around(cut.contents[0] ?? request), tokens: rest.tokens + cut.tokens };
}
