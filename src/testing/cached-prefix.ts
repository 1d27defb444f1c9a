/**
 * Implicit prompt caching as a provider applies it: the part of a request
 * that repeats the start of the previous request is served from the cache.
 * The comparison is over the request in the order the provider reads it
 * (system instruction, tool declarations, then every part of every content);
 * its size is what the ground-truth counter gives for that common prefix.
 * Granularity is a whole part: a part that differs anywhere ends the prefix,
 * a slight underestimate of a token-level cache.
 */
import type { LlmRequest } from '@google/adk';
import type { Content } from '@google/genai';
import { MIN_CACHED_PREFIX_TOKENS } from '../cost/cache-terms.js';
import { safeJson } from '../estimate/json-text.js';
import type { RequestTokenCounter } from './ground-truth.js';

/** The provider's minimum cacheable prefix for Gemini 2.5 models (docs/simulator.md); the guard's own figure. */
export const DEFAULT_MIN_CACHED_TOKENS = MIN_CACHED_PREFIX_TOKENS;

/** The parts of a request that a prefix cache compares, as plain data. */
export interface PrefixSnapshot {
  readonly head: string;
  readonly contents: readonly Content[];
}

export function snapshotRequest(request: LlmRequest): PrefixSnapshot {
  const system = request.config?.systemInstruction;
  return {
    head: safeJson([system ?? null, request.config?.tools ?? []]),
    contents: structuredClone(request.contents ?? []),
  };
}

/** How many leading contents, and parts of the next one, two requests share. */
function commonParts(previous: readonly Content[], current: readonly Content[]): { contents: number; parts: number } {
  let index = 0;
  while (index < previous.length && index < current.length) {
    const before = previous[index];
    const now = current[index];
    if (before?.role !== now?.role) return { contents: index, parts: 0 };
    const beforeParts = before?.parts ?? [];
    const nowParts = now?.parts ?? [];
    let part = 0;
    while (
      part < beforeParts.length &&
      part < nowParts.length &&
      safeJson(beforeParts[part]) === safeJson(nowParts[part])
    )
      part += 1;
    if (part < beforeParts.length || part < nowParts.length) return { contents: index, parts: part };
    index += 1;
  }
  return { contents: index, parts: 0 };
}

/**
 * Tokens of `request` that repeat the start of `previous`, or 0 when that is
 * under `minTokens` (the provider caches nothing shorter) or the system
 * instruction or tools changed.
 */
export function cachedPrefixTokens(
  previous: PrefixSnapshot | undefined,
  request: LlmRequest,
  countTokens: RequestTokenCounter,
  minTokens: number,
  requestTokens: number,
): number {
  if (!previous || previous.head !== snapshotRequest({ config: request.config } as LlmRequest).head) return 0;
  const contents = request.contents ?? [];
  const shared = commonParts(previous.contents, contents);
  const prefix: Content[] = contents.slice(0, shared.contents);
  const partial = contents[shared.contents];
  if (shared.parts > 0 && partial) prefix.push({ ...partial, parts: (partial.parts ?? []).slice(0, shared.parts) });
  const tokens = countTokens({ ...request, contents: prefix });
  return tokens >= minTokens ? Math.min(tokens, requestTokens) : 0;
}
