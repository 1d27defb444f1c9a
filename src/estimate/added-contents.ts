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
 * `now` as `before`, then `left` (the very same objects, in order, without a gap, or, failing that, equal
 * ones: a callback that hands the model copies changes nothing), then `after`; undefined when `left` is not one
 * run of `now` (a content of it removed, replaced by another, moved, or another put among them): what was added
 * cannot then be told from what was changed.
 */
export function addedContents(left: readonly Content[], now: readonly Content[]): AddedContents | undefined {
  if (left.length === 0) return { before: [], after: [...now] };
  return runOf(left, now, (a, b) => a === b) ?? runOf(left, now, sameValue);
}

function runOf(
  left: readonly Content[],
  now: readonly Content[],
  same: (a: unknown, b: unknown) => boolean,
): AddedContents | undefined {
  for (let start = 0; start + left.length <= now.length; start++)
    if (left.every((content, i) => same(content, now[start + i])))
      return { before: now.slice(0, start), after: now.slice(start + left.length) };
  return undefined;
}

/** Whether two JSON-like values are equal: the same primitives, arrays and plain objects, other objects identical. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b))
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  if (Object.getPrototypeOf(a) !== Object.prototype || Object.getPrototypeOf(b) !== Object.prototype) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && sameValue(Reflect.get(a, key), Reflect.get(b, key)));
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
