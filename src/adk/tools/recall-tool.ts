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
import { FunctionTool, getLogger, type BaseTool, type Context } from '@google/adk';
import { isVisibleTo, readEvent, searchEvents } from '../../recall/search-events.js';
import { contentLines, storedTextLines } from '../../recall/result-lines.js';
import { DEFAULT_LINE_LIMITS, parseLineRange, readLines, searchLines } from '../../recall/search-lines.js';
import { isOwnOffloadArtifact, offloadText, sliceArtifactText } from '../../offload/artifact-handle.js';
import { withinTime } from '../../offload/within-time.js';
import { recordLineRead } from '../../telemetry/recall-metrics.js';
import { OPTION_TABLE, optionDefault } from '../../config/option-table.js';
import { integer } from '../../config/option-spec.js';
import { checkFactoryOptions } from '../../validation/factory-options.js';
import { logFailure, type FailureLogger } from '../../logging/failure-log.js';
import { LOG_PREFIX } from '../../logging/log-prefix.js';
import { inSessionLog, sessionLogger } from '../../logging/session-log.js';

export const RECALL_TOOL_NAME = 'recall_history';
const RECALL_TOOL_BRAND = Symbol.for('adk-context-guard.recallTool');

/** Options of `contextRecallTool`. */
export interface ContextRecallToolOptions {
  /** Tool name the model sees. @default 'recall_history' */
  readonly name?: string;
  /** Most hits per search: an integer in [1, 100]. @default 8 */
  readonly maxHits?: number;
  /** Characters of one hit's snippet: an integer >= 20. @default 240 */
  readonly snippetChars?: number;
  /** Characters of one excerpt read by event id: an integer >= 100. @default 4,000 */
  readonly maxExcerptChars?: number;
  /**
   * Milliseconds to wait for the artifact service when reading a stored tool result; then the
   * model is told it could not be read (one warning), so a hung service cannot hang the turn.
   * @default 5,000 (the guard's `artifactTimeoutMs`)
   */
  readonly artifactTimeoutMs?: number;
  /** Where a failed or timed-out read is logged (its error text only at debug). @default ADK's logger */
  readonly logger?: FailureLogger<'warn'>;
}

/** What reading an artifact needs beyond the call's arguments. */
interface ArtifactReader {
  readonly maxChars: number;
  readonly timeoutMs: number;
  readonly logger: () => FailureLogger<'warn'>;
}

interface RecallInput {
  readonly query?: string;
  readonly event_id?: string;
  readonly offset?: number;
  readonly artifact?: string;
  readonly version?: number;
  readonly length?: number;
  readonly pattern?: string;
  readonly lines?: string;
}

/** How one event or stored result is read: by lines (`pattern` or `lines`), else by characters. */
interface ReadMode {
  readonly pattern?: unknown;
  readonly lines?: unknown;
  readonly agentName: string;
}

/** Whether a tool is a recall tool made by `contextRecallTool` (any copy of the package). */
export function isContextRecallTool(tool: unknown): tool is BaseTool {
  return typeof tool === 'object' && tool !== null && RECALL_TOOL_BRAND in tool;
}

/** The tool's numeric options: range and default, read by the check and by the tool. */
const RECALL_LIMITS = {
  maxHits: { range: integer(1, 100), default: 8 },
  snippetChars: { range: integer(20), default: 240 },
  maxExcerptChars: { range: integer(100), default: 4_000 },
} as const;

/**
 * The recall tool.
 * @throws ContextGuardConfigError for an option out of its range or a key that is no option.
 */
export function contextRecallTool(options: ContextRecallToolOptions = {}): FunctionTool {
  const { maxHits, snippetChars, maxExcerptChars, name } = checkedSettings(options);
  const reader: ArtifactReader = {
    maxChars: maxExcerptChars,
    timeoutMs: options.artifactTimeoutMs ?? optionDefault('artifactTimeoutMs'),
    logger: () => sessionLogger(options.logger ?? getLogger()),
  };
  const tool = new FunctionTool({
    name,
    // Short: the guard declares it on every request of an agent that masks for cost.
    description:
      "Reads back this conversation's earlier messages and tool results, also summarized or elided ones. " +
      '`query` (words or ids) finds event_ids. Read one `event_id` or `artifact` (a full_result_artifact.name): ' +
      '`pattern` gives its matching lines, numbered; `lines` ("120-180") reads lines; `offset`, `length` read characters.',
    parameters: recallParameters() as never,
    execute: (input: unknown, context?: Context) => {
      const {
        query,
        event_id: eventId,
        offset,
        artifact,
        version,
        length,
        pattern,
        lines,
      } = (input ?? {}) as RecallInput;
      if (!context) return { error: 'recall_history needs a tool context.' };
      const mode: ReadMode = { pattern, lines, agentName: context.agentName };
      if (typeof artifact === 'string' && artifact.length > 0)
        return inSessionLog(context, () => readArtifact(context, artifact, { version, offset, length, mode }, reader));
      const session = context.invocationContext.session;
      const branch = context.invocationContext.branch;
      if (typeof eventId === 'string' && eventId.length > 0)
        return readEventById(session.events, branch, eventId, { offset, mode }, maxExcerptChars);
      if (typeof query !== 'string' || query.trim().length === 0) return { error: noQuery(pattern, lines) };
      // Earlier recalls and their answers would outrank the events they quote: leave them out.
      const hits = searchEvents(session.events, query, {
        branch,
        limit: maxHits,
        snippetChars,
        excludeTool: name,
        invocation: context.invocationContext.invocationId,
      });
      return {
        query,
        hits: hits.map((hit) => ({
          event_id: hit.eventId,
          turn: hit.turn,
          author: hit.author,
          score: hit.score,
          snippet: hit.snippet,
        })),
      };
    },
  });
  Object.defineProperty(tool, RECALL_TOOL_BRAND, { value: true });
  return tool;
}

/** The options checked, with their defaults. */
function checkedSettings(options: ContextRecallToolOptions) {
  checkFactoryOptions('contextRecallTool()', options, {
    name: 'toolName',
    maxHits: RECALL_LIMITS.maxHits.range,
    snippetChars: RECALL_LIMITS.snippetChars.range,
    maxExcerptChars: RECALL_LIMITS.maxExcerptChars.range,
    artifactTimeoutMs: OPTION_TABLE.artifactTimeoutMs.range,
    logger: 'logger',
  });
  return {
    maxHits: options.maxHits ?? RECALL_LIMITS.maxHits.default,
    snippetChars: options.snippetChars ?? RECALL_LIMITS.snippetChars.default,
    maxExcerptChars: options.maxExcerptChars ?? RECALL_LIMITS.maxExcerptChars.default,
    name: options.name ?? RECALL_TOOL_NAME,
  };
}

/** The parameters' schema the model sees; a fresh object per tool, since ADK passes it on by reference. */
function recallParameters() {
  return {
    type: 'OBJECT',
    properties: {
      query: { type: 'STRING', description: 'Words or ids to find.' },
      event_id: { type: 'STRING', description: "A hit's event_id, to read it." },
      offset: { type: 'INTEGER', description: 'Character offset to read from.' },
      artifact: { type: 'STRING' },
      version: { type: 'INTEGER', description: 'Artifact version (default: the latest).' },
      length: { type: 'INTEGER', description: 'Characters to read.' },
      pattern: { type: 'STRING', description: 'Literal text, any case.' },
      lines: { type: 'STRING' },
    },
  };
}

type SessionEvents = Context['invocationContext']['session']['events'];

/** An excerpt of one event of the session, if the calling agent's branch can see it. */
function readEventById(
  events: SessionEvents,
  branch: string | undefined,
  eventId: string,
  at: { readonly offset: number | undefined; readonly mode: ReadMode },
  maxChars: number,
): Record<string, unknown> {
  const event = events.find((candidate) => candidate.id === eventId);
  // The same rule as search: an event another branch wrote is not this agent's to read.
  if (!event || !event.content || !isVisibleTo(event, branch))
    return { error: `No event ${eventId} in this conversation.` };
  const content = event.content;
  const byLines = readByLines(at.mode, () => contentLines(content));
  return {
    event_id: eventId,
    author: event.author,
    ...(byLines ?? readEvent(event, typeof at.offset === 'number' ? at.offset : 0, maxChars)),
  };
}

/**
 * The answer of a read by `pattern` or `lines` (recall/search-lines.ts), `undefined` when the call
 * asked for neither (then it reads characters); the lines are built only when asked for.
 */
function readByLines(mode: ReadMode, lines: () => string[]): Record<string, unknown> | undefined {
  if (typeof mode.pattern === 'string' && mode.pattern.length > 0) {
    recordLineRead(mode.agentName, 'pattern');
    return { ...searchLines(lines(), mode.pattern) };
  }
  if (mode.lines === undefined || mode.lines === null || mode.lines === '') return undefined;
  const range = parseLineRange(mode.lines);
  if (!range) return { error: `lines must be a range like "120-180", not ${JSON.stringify(mode.lines)}.` };
  recordLineRead(mode.agentName, 'lines');
  return { ...readLines(lines(), range, DEFAULT_LINE_LIMITS) };
}

/** The artifact names this session's events record saving (ADK's `actions.artifactDelta`). */
function* recordedNames(events: SessionEvents): Generator<string> {
  for (const event of events) {
    const delta: unknown = event.actions?.artifactDelta;
    if (typeof delta === 'object' && delta !== null) yield* Object.keys(delta);
  }
}

/** Whether one of this session's events records saving `name`. */
function recordedInSession(events: SessionEvents, name: string): boolean {
  for (const recorded of recordedNames(events)) if (recorded === name) return true;
  return false;
}

/**
 * A name cut with an ellipsis (a model quoting a name it saw shortened, the thirtieth outside trial) read as the one
 * artifact this session recorded whose name begins so; the name as given otherwise.
 */
function wholeName(events: SessionEvents, name: string): string {
  const cut = /(?:…|\.\.\.)$/.exec(name);
  const head = cut ? name.slice(0, cut.index) : '';
  if (head.length === 0) return name;
  const found = new Set([...recordedNames(events)].filter((recorded) => recorded.startsWith(head)));
  return found.size === 1 ? [...found][0]! : name;
}

/**
 * A slice of an offloaded tool result. Only the guard's own artifacts of this app are readable
 * (the name carries the app: ADK's `FileArtifactService` does not key by app), through the
 * invocation's artifact service, which the Runner scopes to this user and session; the wait for
 * it is bounded.
 */
async function readArtifact(
  context: Context,
  asked: string,
  at: { readonly version: unknown; readonly offset: unknown; readonly length: unknown; readonly mode: ReadMode },
  reader: ArtifactReader,
): Promise<Record<string, unknown>> {
  const { appName, session, artifactService } = context.invocationContext;
  const name = wholeName(session.events, asked);
  const notFound = {
    error: `No stored tool result ${name} in this conversation; search for words from it with a query instead.`,
  };
  if (!isOwnOffloadArtifact(name, appName, (recorded) => recordedInSession(session.events, recorded))) return notFound;
  if (!artifactService) return { error: 'No artifact service is configured, so no tool result is stored.' };
  const version =
    typeof at.version === 'number' && Number.isInteger(at.version) && at.version >= 0 ? at.version : undefined;
  const loaded = await withinTime(() => artifactService.loadArtifact({ filename: name, version }), reader.timeoutMs);
  const what = `${LOG_PREFIX} agent '${context.agentName}': could not read a stored tool result`;
  if (loaded.status === 'timeout') {
    reader.logger().warn(`${what} within ${reader.timeoutMs} ms (artifactTimeoutMs).`);
    return { error: `The stored tool result ${name} could not be read in time; try again later.` };
  }
  if (loaded.status === 'failed') {
    logFailure(reader.logger(), 'warn', `${what}.`, loaded.error);
    return notFound;
  }
  const text = offloadText(loaded.value);
  if (text === undefined) return notFound;
  const byLines = readByLines(at.mode, () => storedTextLines(text));
  return { artifact: name, ...(byLines ?? sliceArtifactText(text, at.offset, at.length, reader.maxChars)) };
}

/** What a call with nothing to search or read is told: `pattern` and `lines` read within one event or artifact (trial 49). */
function noQuery(pattern: unknown, lines: unknown): string {
  return pattern !== undefined || lines !== undefined
    ? '`pattern` and `lines` read within one event_id or artifact: give one of them (a query finds event_ids).'
    : 'Give a query to search, or an event_id to read.';
}
