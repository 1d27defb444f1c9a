/**
 * `recall_history`: an ADK tool that lets the model search and read the
 * original events of its session, including those its summaries replaced.
 * Add it to an agent's tools; ContextGuard notices it and tells the model in
 * every summary that older turns can be recalled and how.
 *
 * It reads only the current session, only events visible on the calling
 * agent's branch, and its answers are capped (hits, snippet and excerpt
 * sizes) so one recall can never flood the window.
 */
import { FunctionTool, type BaseTool, type Context } from '@google/adk';
import { isVisibleTo, readEvent, searchEvents } from '../recall/search-events.js';

export const RECALL_TOOL_NAME = 'recall_history';
const RECALL_TOOL_BRAND = Symbol.for('adk-context-guard.recallTool');

export interface ContextRecallToolOptions {
  /** Tool name the model sees. @default 'recall_history' */
  readonly name?: string;
  /** Most hits per search. @default 8 */
  readonly maxHits?: number;
  /** Characters of one hit's snippet. @default 240 */
  readonly snippetChars?: number;
  /** Characters of one excerpt read by event id. @default 4,000 */
  readonly maxExcerptChars?: number;
}

interface RecallInput {
  readonly query?: string;
  readonly event_id?: string;
  readonly offset?: number;
}

/** Whether a tool is a recall tool made by `contextRecallTool` (any copy of the package). */
export function isContextRecallTool(tool: unknown): tool is BaseTool {
  return typeof tool === 'object' && tool !== null && RECALL_TOOL_BRAND in tool;
}

/** The recall tool. */
export function contextRecallTool(options: ContextRecallToolOptions = {}): FunctionTool {
  const maxHits = options.maxHits ?? 8;
  const snippetChars = options.snippetChars ?? 240;
  const maxExcerptChars = options.maxExcerptChars ?? 4_000;
  const name = options.name ?? RECALL_TOOL_NAME;
  const tool = new FunctionTool({
    name,
    description:
      'Search the full history of this conversation, including messages and tool results that were summarized away. ' +
      'Call with `query` (words or exact identifiers) to get ranked hits with their event_id, turn and author; ' +
      'then call with `event_id` (and `offset` to continue) to read the original text.',
    parameters: {
      type: 'OBJECT',
      properties: {
        query: { type: 'STRING', description: 'Words or identifiers to search for.' },
        event_id: { type: 'STRING', description: 'Id of an event from a search hit, to read it.' },
        offset: { type: 'INTEGER', description: 'Character offset when reading a long event.' },
      },
    } as never,
    execute: (input: unknown, context?: Context) => {
      const { query, event_id: eventId, offset } = (input ?? {}) as RecallInput;
      if (!context) return { error: 'recall_history needs a tool context.' };
      const session = context.invocationContext.session;
      const branch = context.invocationContext.branch;
      if (typeof eventId === 'string' && eventId.length > 0) {
        const event = session.events.find((candidate) => candidate.id === eventId);
        // The same rule as search: an event another branch wrote is not this agent's to read.
        if (!event || !event.content || !isVisibleTo(event, branch)) return { error: `No event ${eventId} in this conversation.` };
        return { event_id: eventId, author: event.author, ...readEvent(event, typeof offset === 'number' ? offset : 0, maxExcerptChars) };
      }
      if (typeof query !== 'string' || query.trim().length === 0) return { error: 'Give a query to search, or an event_id to read.' };
      // Earlier recalls and their answers would outrank the events they quote: leave them out.
      const hits = searchEvents(session.events, query, { branch, limit: maxHits, snippetChars, excludeTool: name });
      return { query, hits: hits.map((hit) => ({ event_id: hit.eventId, turn: hit.turn, author: hit.author, score: hit.score, snippet: hit.snippet })) };
    },
  });
  Object.defineProperty(tool, RECALL_TOOL_BRAND, { value: true });
  return tool;
}
