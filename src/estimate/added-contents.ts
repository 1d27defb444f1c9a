/**
 * Where the contents the guard left in a request sit once the agent's own before-model callbacks and
 * the plugins registered after the guard have run on it (ADK runs them later, on the same request):
 * what they put before and after them. A retry of that request (adk/hooks/retry-rejected.ts) reduces
 * the guard's part and puts these around it again, as they were. Pure; compares objects, not text.
 */
import type { Content } from '@google/genai';
import { estimateContentTokens } from './estimate-content.js';
import type { Tokenizer } from './tokenizer.js';

/** The contents others added around the guard's, in order. */
export interface AddedContents {
  readonly before: readonly Content[];
  readonly after: readonly Content[];
}

/**
 * `now` as `before`, then `left` (the very same objects, in order, without a gap), then `after`; undefined
 * when `left` is not one run of `now` (a content of it removed, replaced, moved, or another put among them):
 * what was added cannot then be told from what was changed.
 */
export function addedContents(left: readonly Content[], now: readonly Content[]): AddedContents | undefined {
  if (left.length === 0) return { before: [], after: [...now] };
  for (let start = now.indexOf(left[0]!); start >= 0; start = now.indexOf(left[0]!, start + 1)) {
    if (now.length - start < left.length) return undefined;
    if (runsAt(left, now, start)) return { before: now.slice(0, start), after: now.slice(start + left.length) };
  }
  return undefined;
}

function runsAt(left: readonly Content[], now: readonly Content[], start: number): boolean {
  for (let i = 1; i < left.length; i++) if (now[start + i] !== left[i]) return false;
  return true;
}

/** The contents of `added` in a request: before, then `middle`, then after. */
export function aroundAdded(added: AddedContents, middle: readonly Content[]): Content[] {
  return [...added.before, ...middle, ...added.after];
}

/** Heuristic tokens of the added contents: a part of the request the guard cannot reduce. */
export function addedContentTokens(added: AddedContents, tokenizer: Tokenizer): number {
  let tokens = 0;
  for (const content of [...added.before, ...added.after]) tokens += estimateContentTokens(content, tokenizer);
  return tokens;
}
