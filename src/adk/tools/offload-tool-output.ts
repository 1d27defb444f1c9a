/**
 * Offloads a tool result that truncation cut to the invocation's artifact
 * service (ADK's in-memory, file or GCS service, scoped by the Runner to the
 * user and session, and to the app except on the file service: the name
 * carries the app), so the whole result stays readable through the recall
 * tool while the context keeps head and tail plus a handle.
 *
 * ADK 2.0.0: `Context.saveArtifact` awaits the service with no bound and
 * records the version in the tool event's `actions.artifactDelta` whenever the
 * save ends, also after ADK has built the tool's event. So the invocation's (scoped)
 * service is called directly, waited for at most `artifactTimeoutMs`, and the
 * delta is recorded only for a save that ended in time.
 */
import { stateKeysFor } from '../../state/keys.js';
import { getLogger, type BaseTool, type Context } from '@google/adk';
import { OPTION_TABLE, optionDefault } from '../../config/option-table.js';
import { checkFactoryOptions } from '../../validation/factory-options.js';
import { logFailure } from '../../logging/failure-log.js';
import { offloadArtifactName, offloadPart, withOffloadHandle } from '../../offload/artifact-handle.js';
import { withinTime } from '../../offload/within-time.js';
import { declaredRecallToolName } from './declare-recall-tool.js';
import { isContextRecallTool } from './recall-tool.js';
import { asToolResult, type AgentAfterToolParams, type ToolOutputTruncator } from './tool-output-callback.js';
import { LOG_PREFIX } from '../../logging/log-prefix.js';
import { recordOffload } from '../../telemetry/guard-metrics.js';

/** The logging the offloader needs. */
export interface OffloadLogger {
  debug(...args: unknown[]): void;
  /** Where a stored result is said (its artifact's name, never its text); without it, nothing is said. */
  info?(...args: unknown[]): void;
  warn(...args: unknown[]): void;
}

/** Options of `withArtifactOffload`. */
export interface ArtifactOffloadOptions {
  /** Milliseconds to wait for the artifact service; then the cut result goes alone (one warning). @default 5,000 */
  readonly artifactTimeoutMs?: number;
}

interface OffloadInput {
  readonly context: Context;
  readonly tool: BaseTool;
  /** The whole result, as ADK will wrap it. */
  readonly full: Record<string, unknown>;
  /** The cut result truncation produced. */
  readonly cut: Record<string, unknown>;
  readonly logger: OffloadLogger;
  /** Longest wait for the save. */
  readonly timeoutMs: number;
}

/** Whether a tool call can offload: its invocation has an artifact service, and the tool is not the recall tool itself. */
function canOffload(context: Context, tool: BaseTool): boolean {
  return reachesStore(context.invocationContext?.artifactService) && !isContextRecallTool(tool);
}

/** Wrappers followed at most to reach a store (nested `AgentTool`s add two each). */
const MAX_WRAPPERS = 32;

/**
 * Whether `service` stores artifacts. ADK 2.0.0 gives an `AgentTool` child a `ForwardingArtifactService`
 * over the calling tool's context (wrapped, like every Runner's service, in a `ScopedArtifactService`
 * holding it as `delegate`) even when the caller's invocation has no service: each save then throws
 * "Artifact service is not initialized." So a scoped service stores if its delegate does, and a
 * forwarding one (holding the caller's `invocationContext`) if the caller's service does.
 */
function reachesStore(service: unknown): boolean {
  for (let hops = 0; hops < MAX_WRAPPERS; hops++) {
    if (service === undefined || service === null) return false;
    if (typeof service !== 'object') return true;
    const next = wrapped(service);
    if (next === NOT_WRAPPED) return true;
    service = next;
  }
  return true;
}

const NOT_WRAPPED = Symbol('not wrapped');

/** The service `service` passes its calls to, when it is ADK's scoped or forwarding wrapper. */
function wrapped(service: object): unknown {
  if ('delegate' in service && isArtifactService(service.delegate)) return service.delegate;
  const caller: unknown = (service as { invocationContext?: unknown }).invocationContext;
  if (typeof caller === 'object' && caller !== null && 'artifactService' in caller) return caller.artifactService;
  return NOT_WRAPPED;
}

/** Whether `value` looks like an artifact service: a service of the user's own with some other `delegate` stores itself. */
function isArtifactService(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { saveArtifact?: unknown }).saveArtifact === 'function'
  );
}

/**
 * The recall tool's name on this agent, its own or the one the guard declared on its request (the
 * handle then says how to read the artifact).
 */
function recallToolName(context: Context): string | undefined {
  const tools: unknown = (context.invocationContext.agent as { tools?: unknown }).tools;
  const own: unknown = Array.isArray(tools) ? tools.find((tool) => isContextRecallTool(tool)) : undefined;
  return (own as { name?: string } | undefined)?.name ?? declaredRecallToolName(context);
}

/**
 * Saves `full` as an artifact and returns `cut` plus its handle. When the save
 * fails or does not end within `timeoutMs`, it logs one warning (never the
 * service's error text above debug: it can quote the result) and returns `cut`
 * unchanged: the tool call never fails or hangs because of offloading.
 */
async function offloadToolOutput({
  context,
  tool,
  full,
  cut,
  logger,
  timeoutMs,
}: OffloadInput): Promise<Record<string, unknown>> {
  const what = `${LOG_PREFIX} agent '${context.agentName}': could not store tool '${tool.name}' result as an artifact`;
  const service = context.invocationContext.artifactService;
  if (!service) return cut;
  let name: string;
  let text: string;
  try {
    name = offloadArtifactName(
      context.invocationContext.appName,
      tool.name,
      context.invocationId,
      context.functionCallId,
    );
    text = JSON.stringify(full);
  } catch (error) {
    logFailure(logger, 'warn', `${what}; only its cut version is kept.`, error);
    return cut;
  }
  const saved = await withinTime(
    () => service.saveArtifact({ filename: name, artifact: offloadPart(text) }),
    timeoutMs,
  );
  if (saved.status === 'timeout') {
    logger.warn(`${what} within ${timeoutMs} ms (artifactTimeoutMs); only its cut version is kept.`);
    return cut;
  }
  if (saved.status === 'failed') {
    logFailure(logger, 'warn', `${what}; only its cut version is kept.`, saved.error);
    return cut;
  }
  context.actions.artifactDelta[name] = saved.value;
  const recall = recallToolName(context);
  // Without a recall tool the whole is the application's to read (trial 42: "the model reads it back" was untrue).
  const reader = recall ? `the model reads it back with ${recall}` : 'the agent has no recall tool to read it back';
  logger.info?.(
    `${LOG_PREFIX} agent '${context.agentName}': tool '${tool.name}' result stored whole as artifact '${name}' ` +
      `(version ${saved.value}, ${text.length} characters); ${reader}.`,
  );
  recordOffload(context.agentName, tool.name);
  if (recall) noteNamedCut(context);
  return withOffloadHandle(cut, { name, version: saved.value, chars: text.length }, recall);
}

/**
 * A cut result whose handle names the recall tool: from the agent's next call the tool is sent (recall/declaration.ts
 * `recallDue`). A cut kept without an artifact names nothing, and declaring the tool for it only broke the cache
 * (review 37).
 */
function noteNamedCut(context: Context): void {
  const key = stateKeysFor(context.agentName).toolTruncations;
  const record = context.state.get<Record<string, unknown>>(key) ?? {};
  const named = typeof record['named'] === 'number' ? record['named'] : 0;
  context.state.set(key, { ...record, named: named + 1 });
}

/** A truncator that offloads what it cut (see `withArtifactOffload`); assignable to ADK's `SingleAfterToolCallback`. */
export type OffloadingToolOutputTruncator = (
  params: AgentAfterToolParams,
) => Promise<Record<string, unknown> | undefined>;

/** The logger as a function read at each save; anything else is refused when the wrapper is made. */
function loggerSource(logger: unknown): () => OffloadLogger {
  if (typeof logger === 'function') return logger as () => OffloadLogger;
  checkFactoryOptions(OWNER, { logger }, { logger: 'logger' });
  return () => logger as OffloadLogger;
}

/** How its errors name it. */
const OWNER = 'withArtifactOffload()';

/**
 * Wraps a truncator: a result it cut is also saved whole as an artifact when
 * the invocation has an artifact service, and the cut result carries the
 * handle. Without a service, or when nothing was cut, the truncator's answer
 * is returned as it is. `logger` gets a failed save (default: ADK's at the time of
 * the save): a logger, or a function returning one; `artifactTimeoutMs` bounds the wait for the save.
 *
 * @throws ContextGuardConfigError when `logger` is neither, or for an option out of range or misspelt.
 * @example
 * new LlmAgent({ ..., afterToolCallback: withArtifactOffload(createToolOutputTruncator()) })
 */
export function withArtifactOffload(
  truncator: ToolOutputTruncator,
  logger: OffloadLogger | (() => OffloadLogger) = getLogger,
  options: ArtifactOffloadOptions = {},
): OffloadingToolOutputTruncator {
  const logTo = loggerSource(logger);
  checkFactoryOptions(OWNER, options, { artifactTimeoutMs: OPTION_TABLE.artifactTimeoutMs.range });
  const timeoutMs = options.artifactTimeoutMs ?? optionDefault('artifactTimeoutMs');
  return async (params) => {
    const cut = truncator(params);
    if (!cut || !canOffload(params.context, params.tool)) return cut;
    const full = asToolResult(params.response);
    if (!full) return cut;
    return offloadToolOutput({ context: params.context, tool: params.tool, full, cut, logger: logTo(), timeoutMs });
  };
}
