/**
 * The measures of a request's contents (estimate/content-measure-cache.ts), read with what the cache's probe
 * rests on: the session's events, and the part of them the agent sees. ADK's `getContents` filters the events by
 * the invocation's branch and isolation scope, so one agent run per item of a fan-out sees another history in
 * each branch, under one session and agent key.
 */
import type { Context } from '@google/adk';
import type { Content } from '@google/genai';
import type { ContentMeasureCache, ContentMeasures } from '../../estimate/content-measure-cache.js';
import type { Tokenizer } from '../../estimate/tokenizer.js';

export function measureContents(
  context: Context,
  key: string,
  contents: readonly Content[],
  cache: ContentMeasureCache,
  tokenizer: Tokenizer,
  exact: boolean,
): ContentMeasures {
  const { session, branch, isolationScope } = context.invocationContext;
  const builtFrom = `${branch ?? ''}\u0000${isolationScope ?? ''}`;
  return cache.measure(key, contents, tokenizer, exact, session.events, builtFrom);
}
