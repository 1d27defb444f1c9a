/**
 * ContextGuard options: the exported types, documented field by field for the
 * IDE, and the validator and resolver. Names, scopes, ranges and defaults come
 * from one table (config/option-table.ts); the types are checked against it at
 * compile time. Every invalid value or unknown key throws a
 * `ContextGuardConfigError` at construction that names the field.
 *
 * Why not a zod schema (ADK depends on zod 4, so it would cost users nothing): the
 * table already gives range, default and words once, a schema's inferred type
 * would lose the TSDoc IDEs show field by field, and zod's issues would have to be
 * mapped back to these exact messages and "did you mean" hints in every nested
 * object, which is more code than the checks below.
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
import type { Summarizer } from './summary/summarizer.js';
import type { CompactionRecord } from './records/compaction-record.js';
import type { ToolTruncationRecord } from './truncation/truncate-tool-output.js';
import { validateToolOutputTruncation, type ToolOutputTruncation } from './truncation/policy.js';
import { priceTableProblem, type PriceTable } from './cost/price-table.js';

/** Strategies a policy can use. */
export type CompactionStrategy = (typeof STRATEGY_VALUES)[number];

/**
 * A summarizer: an ADK `BaseLlm` (anything with `generateContentAsync`) or a
 * `Summarizer`. Typed structurally so this module stays free of ADK imports.
 */
export type SummarizerOption =
  Summarizer | { readonly model: string; generateContentAsync: (...args: never[]) => unknown };

// Each field's TSDoc carries the option table's short text and its `@default` (option-table.test.ts checks both).

/** What the guard is told about one tool (ADK's tools carry no such flags). */
export interface ToolDeclaration {
  /**
   * A call of the tool changes nothing (a search, a read), so a masked result's placeholder may suggest calling it
   * again. Otherwise it never does. @default `false`
   */
  readOnly?: boolean;
}

/** What one agent's requests are held to. Every field is optional. */
export interface AgentPolicy {
  /** `false` leaves the agent's requests alone. @default `true` */
  enabled?: boolean;
  /**
   * Window in tokens; overrides the model registry. A smaller maximum the provider states in a rejection still wins.
   * @default registry, else `defaultContextWindow`
   */
  contextWindow?: number;
  /** How history is compacted. @default `'threshold'` */
  strategy?: CompactionStrategy;
  /**
   * Tokens kept free below the window; threshold = window − buffer.
   * @default 20,000 (window > 200k), else `bufferRatio` × window
   */
  bufferTokens?: number;
  /** Buffer as a fraction of the window when `bufferTokens` is unset (windows up to 200k). @default 0.2 */
  bufferRatio?: number;
  /**
   * Room kept for the answer (the request's `maxOutputTokens` when larger); the effective buffer is the larger of the
   * two. @default 0
   */
  reserveOutputTokens?: number;
  /**
   * Until the provider has reported one real count, compact by this fraction of the window at the latest.
   * @default 0.5
   */
  uncalibratedThresholdRatio?: number;
  /** Correction applied to the heuristic before any real count exists. @default 1.5 */
  defaultCorrection?: number;
  /** A request is never knowingly sent above this fraction of the window. @default 0.95 */
  hardLimitRatio?: number;
  /** After a compaction the request uses at most this fraction of the room below the threshold. @default 0.5 */
  compactTargetRatio?: number;
  /**
   * The model that writes summaries: an ADK `BaseLlm` or a `Summarizer` (`{ name, summarize(), contextWindow? }`).
   * @default the agent's model
   */
  summarizer?: SummarizerOption;
  /**
   * Window of the summarizer, when it differs from the agent's. For a `BaseLlm`, its model's window comes from the
   * registry. @default the `Summarizer`'s `contextWindow`, else the model's window
   */
  summarizerContextWindow?: number;
  /**
   * After this, the mechanical fallback summary is used (at most 2^31 − 1 ms, what a timer honours). A timer fires
   * after 1 ms beyond that, so larger values are refused. @default 60,000
   */
  summarizerTimeoutMs?: number;
  /** Upper bound of a summary (smaller windows get less). @default 4,096 */
  summaryMaxTokens?: number;
  /** Share of the summarizer's window its input may use; oldest contents dropped first. @default 0.8 */
  summarizerInputRatio?: number;
  /**
   * Head+tail cut of oversized tool results; `false` turns it off; per-tool limits under `tools`. Runs as
   * `afterToolCallback`; an agent's value replaces the global one (see docs/truncation.md).
   * @default on, 10 KiB / 256 lines
   */
  toolOutputTruncation?: ToolOutputTruncation;
  /** Pin the user's first request of the session (the task), so it is never summarized away. @default `false` */
  pinFirstRequest?: boolean;
  /**
   * Cap on the tokens all pins of an agent may take; never more than half the window. Checked against the window in
   * force before every request. @default 10% of the window
   */
  maxPinnedTokens?: number;
  /**
   * Observation masking: when a compaction is due, the tool results of completed turns and all but this many of the
   * in-flight turn are first replaced by placeholders, with no model call; `0` turns masking off. The summarizer runs
   * only when that is not enough. @default 1
   */
  maskKeepRecent?: number;
  /**
   * Masking for cost: the tool results of completed turns become placeholders at a turn's first call, with no model
   * call, even with the window far from full, once that saves at least this many tokens and pays for the provider's
   * cached prefix it breaks; `0` turns it off, and so does `maskKeepRecent: 0`. The saving is weighed over the calls
   * expected before the threshold with the model's cached price; the in-flight turn is never masked. @default 2,048
   */
  maskStaleOutputTokens?: number;
  /**
   * Background compaction: within this many of the session's average turns of the threshold, the summary is
   * prepared without waiting for it and applied at the threshold; `0` turns it off. The compacting call applies it
   * only if still valid. @default 1
   */
  prepareTurnsAhead?: number;
  /**
   * Background compaction across replicas: a call at the threshold while another replica prepares the summary
   * re-reads the session for it this long at most (ms), then summarizes itself; `0` never waits. @default 15,000
   */
  preparedSummaryWaitMs?: number;
  /**
   * Per-tool declarations by exact tool name, e.g. `{ search_orders: { readOnly: true } }` for a tool whose calls
   * change nothing: only its masked results' placeholders may suggest calling it again. An agent's entry for a tool
   * is merged over the global one. @default `{}`
   */
  tools?: Record<string, ToolDeclaration>;
  /** Sliding window (θ): compact once this many turns completed since the last compaction. @default 5 */
  invocationThreshold?: number;
  /** Sliding window (ω): completed turns kept verbatim after the summary. For continuity. @default 2 */
  overlapSize?: number;
  /** Sliding window (ρ): compact early when the request reaches this fraction of the window. @default 0.7 */
  safetyRatio?: number;
  /**
   * Sliding window: scheduled compactions stop after this many in a session. The threshold still applies, so
   * requests keep fitting. @default 1,000
   */
  maxCompactions?: number;
}

/** Options of the `ContextGuard` plugin: a default policy for every agent, plus per-agent ones. */
export interface ContextGuardOptions extends AgentPolicy {
  /** Plugin name, as ADK shows it. ADK rejects duplicates on one Runner. @default `'context_guard'` */
  name?: string;
  /**
   * Per-agent policies by exact agent name, merged over the global values; an agent not listed gets the global
   * values. Only own enumerable entries are read. @default `{}`
   */
  agents?: Record<string, AgentPolicy>;
  /** Extra `{ modelName: window }` entries, consulted before the model registry. @default `{}` */
  modelWindows?: Record<string, number>;
  /**
   * Window assumed for a model no registry knows (with one warning), until a rejection states the real maximum.
   * @default 128,000
   */
  defaultContextWindow?: number;
  /**
   * Longest wait, in ms, for the artifact service when a cut tool result is stored whole; then the cut version alone
   * is kept, with one warning. So a storage call that never returns cannot hang the turn. @default 5,000
   */
  artifactTimeoutMs?: number;
  /**
   * Extra `{ modelName: { input, cachedInput?, output } }` prices (USD per million tokens) for the cost estimate in
   * `status()` and telemetry, and for the cached discount masking for cost weighs. Consulted before the built-in
   * table (docs/observability.md). @default `{}`
   */
  prices?: PriceTable;
  /**
   * Token counter `{ name, count(text) }`; the default counts o200k_base tokens (js-tiktoken's vocabulary). A count
   * that is not a finite number >= 0 is replaced by the built-in count (one warning). @default `tiktokenTokenizer`
   */
  tokenizer?: Tokenizer;
  /** Where log lines go; conversation text is never logged above debug level. @default ADK's `getLogger()` */
  logger?: GuardLogger;
  /** Called with the audit record of every compaction. A listener that throws is logged and ignored. */
  onCompaction?: (record: CompactionRecord) => void | Promise<void>;
  /** Called with the record of every tool result truncation. It holds the tool, original and kept size. */
  onToolTruncation?: (record: ToolTruncationRecord & { readonly agentName: string }) => void;
  /**
   * Debugging only: keep the summarizer's error text (it can quote the conversation) in compaction records. When
   * the summarizer fails, records carry only the kind of failure (`fallbackReason`: `'timeout'`, `'failed'`,
   * `'empty'`, `'unavailable'`); set this to also store the text as `fallbackDetail` (session state and event
   * metadata). @default `false`
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
      checkRange(`${path}.${model}`, window, OPTION_TABLE.contextWindow.range); // a window, as `contextWindow`
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
    checkRange(`${path}.contextWindow`, declared, OPTION_TABLE.summarizerContextWindow.range);
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
