/**
 * The measures of a request's contents (estimate/content-measure-cache.ts), read with what the cache's probe
 * rests on: the session's events, and the part of them the agent sees. ADK's `getContents` filters the events by
 * the invocation's branch and isolation scope, so one agent run per item of a fan-out sees another history in
 * each branch, under one session and agent key.
 */
import { InMemorySessionService, version, type BaseSessionService, type Context } from '@google/adk';
import type { Content } from '@google/genai';
import type { ContentMeasureCache, ContentMeasures } from '../../estimate/content-measure-cache.js';
import type { Tokenizer } from '../../estimate/tokenizer.js';
import { userOfContext } from '../runtime/session-scope.js';

export function measureContents(
  context: Context,
  key: string,
  contents: readonly Content[],
  cache: ContentMeasureCache,
  tokenizer: Tokenizer,
  exact: boolean,
): ContentMeasures {
  const { session, branch, isolationScope, sessionService } = context.invocationContext;
  const builtFrom = `${branch ?? ''}\u0000${isolationScope ?? ''}`;
  return cache.measure(key, contents, tokenizer, {
    exact,
    events: session.events,
    builtFrom,
    appendOnly: appendsInOrder(sessionService),
    // The memo of measured contents is the user's own: no user's content stands for another's.
    tenant: userOfContext(context),
  });
}

/**
 * Whether the store keeps a session's events in the order they were appended and never removes one: ADK's
 * `InMemorySessionService` itself, with its own `getSession` and `appendEvent` (it pushes, or replaces an
 * event of the same id where it stands; checked in its 2.0 source, so only for ADK 2.0.x: a later release
 * may add a rewind). A subclass, an instance with its methods replaced, or any other store may reorder
 * (`DatabaseSessionService` reloads by timestamp).
 */
export function appendsInOrder(store: BaseSessionService | undefined, adkVersion: string = version): boolean {
  if (store === undefined || !adkVersion.startsWith('2.0.')) return false;
  const own = InMemorySessionService.prototype;
  return (
    Object.getPrototypeOf(store) === own && store.getSession === own.getSession && store.appendEvent === own.appendEvent
  );
}
