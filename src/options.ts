/**
 * ContextGuard options: the exported types, documented field by field for the
 * IDE, and the validator and resolver. Names, scopes, ranges and defaults come
 * from one table (config/option-table.ts); the types are checked against it at
 * compile time. Every invalid value or unknown key throws a
 * `ContextGuardConfigError` at construction that names the field.
 */
import { closestName } from './config/closest-name.js';
import { isPlainObject } from './config/plain-object.js';
import {
  OPTION_NAMES,
  OPTION_TABLE,
  optionDefault,
  POLICY_OPTION_NAMES,
  STRATEGY_VALUES,
  type GlobalOptionName,
  type OptionName,
  type OptionRange,
  type OptionScope,
  type OptionSpec,
  type OtherOptionName,
  type PolicyOptionName,
  TOOL_FIELD_NAMES,
  TOOL_FIELD_TABLE,
} from './config/option-table.js';
import type { Tokenizer } from './estimate/tokenizer.js';
import { ContextGuardConfigError } from './errors.js';
import type { Summarizer } from './compaction/summarizer.js';
import type { CompactionRecord } from './records/compaction-record.js';
import type { ToolTruncationRecord } from './truncation/truncate-tool-output.js';
import { validateToolOutputTruncation, type ToolOutputTruncation } from './truncation/truncation-policy.js';
import { priceTableProblem, type PriceTable } from './cost/price-table.js';

/** Strategies a policy can use. */
export type CompactionStrategy = (typeof STRATEGY_VALUES)[number];

/**
 * A summarizer: an ADK `BaseLlm` (anything with `generateContentAsync`) or a
 * `Summarizer`. Typed structurally so this module stays free of ADK imports.
 */
export type SummarizerOption =
  Summarizer | { readonly model: string; generateContentAsync: (...args: never[]) => unknown };

/** What the guard is told about one tool (ADK's tools carry no such flags). */
export interface ToolDeclaration {
  /**
   * A call changes nothing (a search, a read), so calling it again with the same arguments is safe:
   * a masked result's placeholder may suggest it. Otherwise it never does. @default false
   */
  readOnly?: boolean;
}

/** What one agent's requests are held to. Every field is optional. */
export interface AgentPolicy {
  /** Set to `false` to leave this agent's requests alone. @default true */
  enabled?: boolean;
  /**
   * Context window in tokens. Overrides the model registry.
   * @default the window of `llmRequest.model` from the registry (128,000 for an unknown model, with a warning)
   */
  contextWindow?: number;
  /** How history is compacted. @default 'threshold' */
  strategy?: CompactionStrategy;
  /**
   * Tokens kept free below the window. @default 20,000 for windows over 200k tokens, else `bufferRatio` of the window
   */
  bufferTokens?: number;
  /** Fraction of the window kept free when `bufferTokens` is not set (windows up to 200k). @default 0.2 */
  bufferRatio?: number;
  /**
   * Tokens reserved for the model's answer. The request's own `config.maxOutputTokens` is used when set.
   * The effective buffer is the larger of this and the buffer. @default 0
   */
  reserveOutputTokens?: number;
  /** While no real token count has been seen, compaction starts by this fraction of the window at the latest. @default 0.5 */
  uncalibratedThresholdRatio?: number;
  /** Correction applied to the heuristic before any real count exists. @default 1.5 */
  defaultCorrection?: number;
  /** A request is never knowingly sent above this fraction of the window. @default 0.95 */
  hardLimitRatio?: number;
  /** After a compaction, the request should use at most this fraction of the room below the threshold. @default 0.5 */
  compactTargetRatio?: number;
  /** The model that writes summaries. @default the agent's own model */
  summarizer?: SummarizerOption;
  /**
   * Context window of the summarizer, when it differs from the agent's.
   * @default a `Summarizer`'s own `contextWindow`, else the agent's window; for a `BaseLlm`, its model's window from the registry
   */
  summarizerContextWindow?: number;
  /**
   * Milliseconds before a summarizer call is abandoned for the fallback summary. At most 2^31 - 1
   * (a timer fires after 1 ms beyond that, so larger values are refused). @default 60,000
   */
  summarizerTimeoutMs?: number;
  /** Upper bound of a summary, in tokens (smaller windows get less). @default 4,096 */
  summaryMaxTokens?: number;
  /** Fraction of the summarizer's window its input may use (oldest contents dropped first). @default 0.8 */
  summarizerInputRatio?: number;
  /**
   * Head+tail truncation of oversized tool results (`afterToolCallback`): `false` turns it off;
   * per-tool limits under `tools`. An agent's value replaces the global one.
   * @default on: 10 KiB or 256 lines, keeping the first and last 128 lines (see docs/truncation.md)
   */
  toolOutputTruncation?: ToolOutputTruncation;
  /** Pin the user's first request of the session (the task), so it is never summarized away. @default false */
  pinFirstRequest?: boolean;
  /** Cap on the tokens all pins of an agent may take. @default 10% of the window */
  maxPinnedTokens?: number;
  /**
   * Observation masking: when a compaction is due, the tool results of completed turns and all but
   * this many of the in-flight turn are first replaced by a placeholder, with no model call; the
   * summarizer runs only when that is not enough. `0` turns masking off. @default 1
   */
  maskKeepRecent?: number;
  /**
   * Masking for cost: every later call would re-send and pay for the tool results of completed
   * turns, so they are masked at a turn's first call, with no model call, even with the window far
   * from full, once that saves at least this many (estimated) tokens and the saving, over the calls
   * expected before the threshold, beats the provider's cached prefix it breaks (weighed with the
   * model's cached price). The in-flight turn is never masked. `0` turns it off;
   * `maskKeepRecent: 0` turns it off too. @default 2048
   */
  maskStaleOutputTokens?: number;
  /**
   * Background compaction: once the estimate is within this many of the session's average turns
   * (`averageTurnTokens`) of the threshold, the summary the threshold would need is prepared without
   * waiting for it; the compacting call applies it if still valid. `0` turns it off. @default 1
   */
  prepareTurnsAhead?: number;
  /**
   * Background compaction across replicas: a call at the threshold while another replica prepares the
   * summary re-reads the session for it this long at most (ms), then summarizes itself. `0` never
   * waits. @default 15000
   */
  preparedSummaryWaitMs?: number;
  /**
   * Per-tool declarations by exact tool name, e.g. `{ search_orders: { readOnly: true } }`. An agent's
   * entry for a tool is merged over the global one. @default {}
   */
  tools?: Record<string, ToolDeclaration>;
  /** Sliding window (theta): compact once this many turns completed since the last compaction. @default 5 */
  invocationThreshold?: number;
  /** Sliding window (omega): completed turns kept verbatim after the summary, for continuity. @default 2 */
  overlapSize?: number;
  /** Sliding window (rho): compact early when the request reaches this fraction of the window. @default 0.7 */
  safetyRatio?: number;
  /**
   * Sliding window: scheduled compactions stop after this many in a session (the
   * threshold still applies, so requests keep fitting). @default 1,000
   */
  maxCompactions?: number;
}

/** Options of the `ContextGuard` plugin: a default policy for every agent, plus per-agent ones. */
export interface ContextGuardOptions extends AgentPolicy {
  /** Plugin name, as ADK shows it. @default 'context_guard' */
  name?: string;
  /** Per-agent policies, merged over the defaults above. An agent not listed gets the defaults. Only own enumerable entries are read. */
  agents?: Record<string, AgentPolicy>;
  /** Extra context windows by model name, consulted before the built-in registry. */
  modelWindows?: Record<string, number>;
  /** Window assumed for a model no registry knows. @default 128,000 */
  defaultContextWindow?: number;
  /**
   * Milliseconds to wait for the artifact service when a cut tool result is stored whole; after
   * that the cut version alone is kept (one warning), so a storage call that never returns
   * cannot hang the turn. @default 5,000
   */
  artifactTimeoutMs?: number;
  /**
   * Prices in USD per million tokens by model name (`{ input, cachedInput?, output }`), consulted
   * before the built-in table, for the cost estimate in `status()` and telemetry (docs/observability.md),
   * and for the cached discount (`cachedInput` / `input`) that masking for cost weighs.
   */
  prices?: PriceTable;
  /**
   * Token counter. A count that is not a finite number >= 0 is replaced by the built-in count (one warning).
   * @default `tiktokenTokenizer`: o200k_base (js-tiktoken's vocabulary), linear-time and sampled
   */
  tokenizer?: Tokenizer;
  /** Where log lines go. @default ADK's logger */
  logger?: GuardLogger;
  /** Called with the audit record of every compaction. A listener that throws is logged and ignored. */
  onCompaction?: (record: CompactionRecord) => void | Promise<void>;
  /** Called with the record of every tool result truncation (tool, original and kept size). */
  onToolTruncation?: (record: ToolTruncationRecord & { readonly agentName: string }) => void;
  /**
   * Debugging only. When the summarizer fails, compaction records carry only the kind of failure
   * (`fallbackReason`: `'timeout'`, `'failed'`, `'empty'`, `'unavailable'`), because a provider's
   * error text can quote the conversation. Set this to also store that text as `fallbackDetail`
   * in the records (session state and event metadata). @default false
   */
  debugSummarizerErrorText?: boolean;
}

/** A minimal logger; ADK's `getLogger()` fits. Conversation text is never logged above `debug`. */
export interface GuardLogger {
  debug(...args: unknown[]): void;
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

/** A policy with every default applied. */
export interface ResolvedPolicy {
  readonly enabled: boolean;
  readonly contextWindow: number | undefined;
  readonly strategy: CompactionStrategy;
  readonly bufferTokens: number | undefined;
  readonly bufferRatio: number;
  readonly reserveOutputTokens: number;
  readonly uncalibratedThresholdRatio: number;
  readonly defaultCorrection: number;
  readonly hardLimitRatio: number;
  readonly compactTargetRatio: number;
  readonly summarizer: SummarizerOption | undefined;
  readonly summarizerContextWindow: number | undefined;
  readonly summarizerTimeoutMs: number;
  readonly summaryMaxTokens: number;
  readonly summarizerInputRatio: number;
  readonly toolOutputTruncation: ToolOutputTruncation | undefined;
  readonly pinFirstRequest: boolean;
  readonly maxPinnedTokens: number | undefined;
  readonly maskKeepRecent: number;
  readonly maskStaleOutputTokens: number;
  readonly prepareTurnsAhead: number;
  readonly preparedSummaryWaitMs: number;
  readonly tools: Readonly<Record<string, Readonly<ToolDeclaration>>>;
  readonly invocationThreshold: number;
  readonly overlapSize: number;
  readonly safetyRatio: number;
  readonly maxCompactions: number;
}

/** Policy fields whose default is a constant of the option table (the others are computed at run time). */
type DefaultedPolicyName = {
  [K in PolicyOptionName]: (typeof OPTION_TABLE)[K] extends { readonly default: unknown } ? K : never;
}[PolicyOptionName];

/** The constant defaults of every policy field, from the option table. */
export const POLICY_DEFAULTS: Readonly<Pick<ResolvedPolicy, DefaultedPolicyName>> = Object.freeze(
  Object.fromEntries(
    POLICY_OPTION_NAMES.flatMap((name) => {
      const spec: OptionSpec = OPTION_TABLE[name];
      return spec.default === undefined ? [] : [[name, spec.default]];
    }),
  ),
) as Pick<ResolvedPolicy, DefaultedPolicyName>;

// Compile-time agreement of the interfaces above with the option table: same names, same scopes, defaults of the right type.
type Assert<T extends true> = T;
type SameKeys<A, B> = [Exclude<A, B>, Exclude<B, A>] extends [never, never] ? true : false;
// Never used: declaring it is the check (the leading underscore tells the linter so).
type _OptionTableMatchesTypes = Assert<
  SameKeys<keyof AgentPolicy, PolicyOptionName> extends true
    ? SameKeys<keyof ResolvedPolicy, PolicyOptionName> extends true
      ? SameKeys<Exclude<keyof ContextGuardOptions, keyof AgentPolicy>, GlobalOptionName> extends true
        ? { [K in DefaultedPolicyName]: ReturnType<typeof optionDefault<K>> } extends Pick<
            ResolvedPolicy,
            DefaultedPolicyName
          >
          ? true
          : false
        : false
      : false
    : false
>;

type Check = (path: string, value: unknown) => void;

/** The options whose range the table cannot express; each has its own check. */
const OTHER_CHECKS: Record<OtherOptionName, Check> = {
  summarizer: checkSummarizer,
  toolOutputTruncation: (path, value) => validateToolOutputTruncation(value, path),
  name: (path, value) => {
    if (typeof value !== 'string' || value.length === 0)
      throw new ContextGuardConfigError(path, value, 'must be a non-empty string');
  },
  agents: (path, value) => {
    if (typeof value !== 'object' || value === null)
      throw new ContextGuardConfigError(path, value, 'must be an object keyed by agent name');
  },
  modelWindows: (path, value) => {
    if (!isPlainObject(value))
      throw new ContextGuardConfigError(path, value, 'must be an object of { modelName: window }');
    for (const [model, window] of Object.entries(value))
      checkRange(`${path}.${model}`, window, { type: 'integer', min: 1_024 });
  },
  logger: (path, value) => {
    const logger = value as Partial<Record<keyof GuardLogger, unknown>> | null;
    if (
      typeof logger !== 'object' ||
      logger === null ||
      !(['debug', 'info', 'warn', 'error'] as const).every((level) => typeof logger[level] === 'function')
    ) {
      throw new ContextGuardConfigError(path, value, 'must have debug, info, warn and error methods');
    }
  },
  tokenizer: (path, value) => {
    if (typeof (value as { count?: unknown } | null)?.count !== 'function')
      throw new ContextGuardConfigError(path, value, 'must have a count(text) method');
  },
  prices: (path, value) => {
    const problem = priceTableProblem(value);
    if (problem) throw new ContextGuardConfigError(`${path}${problem.field}`, problem.value, problem.reason);
  },
  onCompaction: checkFunction,
  onToolTruncation: checkFunction,
  tools: checkTools,
};

/** `{ [toolName]: { readOnly? } }`: a field no tool declaration has is refused, naming the closest. */
function checkTools(path: string, value: unknown): void {
  if (!isPlainObject(value)) throw new ContextGuardConfigError(path, value, 'must be an object keyed by tool name');
  for (const [toolName, declaration] of Object.entries(value)) {
    const toolPath = `${path}.${toolName}`;
    if (toolName.length === 0) throw new ContextGuardConfigError(path, value, 'must not have an empty tool name');
    if (!isPlainObject(declaration))
      throw new ContextGuardConfigError(toolPath, declaration, 'must be an object such as { readOnly: true }');
    for (const [field, fieldValue] of Object.entries(declaration)) {
      if (!(TOOL_FIELD_NAMES as readonly string[]).includes(field)) {
        const closest = closestName(field, TOOL_FIELD_NAMES);
        const hint = closest === undefined ? `known: ${TOOL_FIELD_NAMES.join(', ')}` : `did you mean '${closest}'?`;
        throw new ContextGuardConfigError(`${toolPath}.${field}`, fieldValue, `is not a tool declaration (${hint})`);
      }
      if (fieldValue !== undefined)
        checkRange(`${toolPath}.${field}`, fieldValue, TOOL_FIELD_TABLE[field as keyof typeof TOOL_FIELD_TABLE].range);
    }
  }
}

function checkFunction(path: string, value: unknown): void {
  if (typeof value !== 'function') throw new ContextGuardConfigError(path, value, 'must be a function');
}

function checkSummarizer(path: string, value: unknown): void {
  const ok =
    typeof value === 'object' &&
    value !== null &&
    (typeof (value as { summarize?: unknown }).summarize === 'function' ||
      typeof (value as { generateContentAsync?: unknown }).generateContentAsync === 'function');
  if (!ok)
    throw new ContextGuardConfigError(path, value, 'must be an ADK BaseLlm or a Summarizer ({ name, summarize })');
  const declared = (value as { contextWindow?: unknown }).contextWindow;
  if (declared !== undefined && typeof (value as { summarize?: unknown }).summarize === 'function') {
    checkRange(`${path}.contextWindow`, declared, { type: 'integer', min: 1_024 });
  }
}

/** Checks a value against a range of the option table. */
function checkRange(path: string, value: unknown, range: OptionRange): void {
  switch (range.type) {
    case 'integer': {
      const ok =
        typeof value === 'number' &&
        Number.isInteger(value) &&
        value >= range.min &&
        (range.max === undefined || value <= range.max);
      if (!ok)
        throw new ContextGuardConfigError(
          path,
          value,
          range.max === undefined
            ? `must be an integer >= ${range.min}`
            : `must be an integer in [${range.min}, ${range.max}]`,
        );
      return;
    }
    case 'number': {
      const ok =
        typeof value === 'number' &&
        Number.isFinite(value) &&
        (range.minInclusive ? value >= range.min : value > range.min) &&
        value <= range.max;
      if (!ok)
        throw new ContextGuardConfigError(
          path,
          value,
          `must be a number in ${range.minInclusive ? '[' : '('}${range.min}, ${range.max}]`,
        );
      return;
    }
    case 'boolean':
      if (typeof value !== 'boolean') throw new ContextGuardConfigError(path, value, 'must be a boolean');
      return;
    case 'enum':
      if (typeof value !== 'string' || !range.values.includes(value)) {
        throw new ContextGuardConfigError(
          path,
          value,
          `must be one of ${range.values.map((v) => `'${v}'`).join(', ')}`,
        );
      }
      return;
    case 'other':
      return;
  }
}

/** Validates one option's value (undefined means unset). */
function checkOption(name: OptionName, value: unknown, prefix: string): void {
  if (value === undefined) return;
  const path = `${prefix}${name}`;
  const spec: OptionSpec = OPTION_TABLE[name];
  if (spec.range.type === 'other') OTHER_CHECKS[name as OtherOptionName](path, value);
  else checkRange(path, value, spec.range);
}

/** Refuses keys no option has (a typo passes silently otherwise in JavaScript), naming the closest valid one. */
function checkKnownKeys(object: object, prefix: string, scope: OptionScope): void {
  const allowed: readonly string[] = scope === 'policy' ? POLICY_OPTION_NAMES : OPTION_NAMES;
  for (const key of Object.keys(object)) {
    if (allowed.includes(key)) continue;
    if ((OPTION_NAMES as readonly string[]).includes(key)) {
      throw new ContextGuardConfigError(
        `${prefix}${key}`,
        (object as Record<string, unknown>)[key],
        'is a global option: set it at the top level, not per agent',
      );
    }
    const closest = closestName(key, allowed);
    const hint = closest === undefined ? 'see docs/configuration.md' : `did you mean '${closest}'?`;
    throw new ContextGuardConfigError(
      `${prefix}${key}`,
      (object as Record<string, unknown>)[key],
      `is not a ContextGuard option (${hint})`,
    );
  }
}

/** Validates one policy; `prefix` names it in errors (`''` or `agents.<name>.`). */
function validatePolicy(policy: AgentPolicy, prefix: string): void {
  if (typeof policy !== 'object' || policy === null)
    throw new ContextGuardConfigError(prefix.replace(/\.$/, '') || 'options', policy, 'must be an object');
  if (prefix !== '') checkKnownKeys(policy, prefix, 'policy');
  for (const name of POLICY_OPTION_NAMES) checkOption(name, policy[name], prefix);
  checkFitsWindow(prefix, policy, policy.contextWindow);
}

/** Buffer and output reserve must each leave room in the window (the agent's own, or the global one). */
function checkFitsWindow(prefix: string, policy: AgentPolicy, window: number | undefined): void {
  if (window === undefined) return;
  for (const field of ['bufferTokens', 'reserveOutputTokens'] as const) {
    const value = policy[field];
    if (value !== undefined && value >= window) {
      throw new ContextGuardConfigError(
        `${prefix}${field}`,
        value,
        `must be smaller than the context window (${window})`,
      );
    }
  }
}

/**
 * The agents listed in `agents`: own enumerable entries only. An entry
 * inherited through the prototype chain is neither validated nor used.
 */
export function agentEntries(agents: ContextGuardOptions['agents']): [string, AgentPolicy][] {
  return agents === undefined || agents === null ? [] : Object.entries(agents);
}

/** Validates all options; throws `ContextGuardConfigError` on the first invalid field or unknown key. */
export function validateOptions(options: ContextGuardOptions): void {
  if (typeof options !== 'object' || options === null)
    throw new ContextGuardConfigError('options', options, 'must be an object');
  checkKnownKeys(options, '', 'global');
  validatePolicy(options, '');
  for (const name of OPTION_NAMES) if (OPTION_TABLE[name].scope === 'global') checkOption(name, options[name], '');
  for (const [agentName, policy] of agentEntries(options.agents)) {
    validatePolicy(policy, `agents.${agentName}.`);
    // The agent's effective buffer and reserve (its own or the global ones) must fit its effective window.
    const effective: AgentPolicy = {
      bufferTokens: policy.bufferTokens ?? options.bufferTokens,
      reserveOutputTokens: policy.reserveOutputTokens ?? options.reserveOutputTokens,
    };
    checkFitsWindow(`agents.${agentName}.`, effective, policy.contextWindow ?? options.contextWindow);
  }
}

/** The policy for `agentName`: defaults, then the global options, then the agent's own (an own enumerable `agents` entry). */
export function resolvePolicy(options: ContextGuardOptions, agentName: string): ResolvedPolicy {
  const agents = options.agents;
  const own: AgentPolicy =
    agents && Object.prototype.propertyIsEnumerable.call(agents, agentName) ? (agents[agentName] ?? {}) : {};
  const resolved: Partial<Record<PolicyOptionName, unknown>> = {};
  for (const name of POLICY_OPTION_NAMES) {
    const value = own[name] !== undefined ? own[name] : options[name];
    resolved[name] = value !== undefined ? value : optionDefault(name);
  }
  resolved.tools = mergeTools(options.tools, own.tools);
  return resolved as ResolvedPolicy;
}

/** The global tool declarations with the agent's merged over them, tool by tool (own entries only). */
function mergeTools(
  global: AgentPolicy['tools'],
  own: AgentPolicy['tools'],
): Readonly<Record<string, Readonly<ToolDeclaration>>> {
  // A Map, then own properties: a tool named `__proto__` stays a tool, not a prototype.
  const merged = new Map<string, ToolDeclaration>();
  for (const layer of [global, own]) {
    for (const [toolName, declaration] of Object.entries(layer ?? {}))
      merged.set(toolName, { ...merged.get(toolName), ...declaration });
  }
  return Object.fromEntries(merged);
}
