/**
 * ContextGuard options: the exported types, documented field by field for the
 * IDE, and the constant defaults of a policy. Names, scopes, ranges and
 * defaults come from one table (config/option-table.ts); the types are checked
 * against it at compile time. The validator is validation/validate-options.ts,
 * the resolver policy/resolve-policy.ts.
 */
import { STRATEGY_VALUES } from './config/budget-options.js';
import {
  OPTION_TABLE,
  optionDefault,
  POLICY_OPTION_NAMES,
  type GlobalOptionName,
  type PolicyOptionName,
} from './config/option-table.js';
import type { OptionSpec } from './config/option-spec.js';
import type { Tokenizer } from './estimate/tokenizer.js';
import type { Summarizer } from './summary/summarizer.js';
import type { CompactionRecord } from './records/compaction-record.js';
import type { ToolTruncationRecord } from './truncation/truncate-tool-output.js';
import type { ToolOutputTruncation } from './truncation/policy.js';
import type { PriceTable } from './cost/price-table.js';

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
  /**
   * With `readOnly`: a repeated call is answered from the earlier result the model no longer sees, unless a tool not
   * declared `readOnly` ran since. @default `false`
   */
  reuseResult?: boolean;
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
   * Buffer below the window; threshold = window − buffer, where a compaction starts (a masking that alone makes room
   * may wait past it, up to the hard limit). @default 20,000 (window > 200k), else `bufferRatio` × window
   */
  bufferTokens?: number;
  /** Buffer as a fraction of the window when `bufferTokens` is unset (windows up to 200k). @default 0.2 */
  bufferRatio?: number;
  /**
   * Room kept for the answer (the request's `maxOutputTokens` when larger, at most half the window); the effective
   * buffer is the larger of the two. @default 0
   */
  reserveOutputTokens?: number;
  /** Until the provider has reported one real count, compact by this fraction of the window at the latest. @default 0.5 */
  uncalibratedThresholdRatio?: number;
  /** Correction applied to the heuristic before any real count exists. @default 1.5 */
  defaultCorrection?: number;
  /**
   * A request is never knowingly sent above this fraction of the window.
   * @default 0.95, raised to the threshold when that is higher
   */
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
  /** Share of the summarizer's window its input may use; what does not fit is summarized first. @default 0.8 */
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
   * Masking for cost: old tool results (of completed turns, and, once a tool loop has made ten calls, its steps but
   * the last `maskKeepRecent`) become placeholders in batches, with no model call, even with the window far from full, once a
   * batch saves at least this many tokens and pays for the provider's cached prefix it breaks; `0` turns it off, and
   * so does `maskKeepRecent: 0`. The saving is weighed over the calls expected before the threshold with the model's
   * cached price; the user's message and the latest call are never masked. @default 2,048
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
  /**
   * The budget the model sees: every request ends with one line (tokens used of the window, turns left at the
   * session's pace, steps left inside a tool loop, whether a compaction is near, how to read back masked output),
   * never stored; the `context_status` tool gives the same figures. Not added in Interactions mode.
   * @default `false`
   */
  budgetLine?: boolean;
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
   * Tokens of history kept measured in process memory, all sessions together (about 8 bytes of heap a token, twice
   * that in RSS). @default 32,000,000
   */
  measureCacheTokens?: number;
  /**
   * Extra `{ modelName: { input, cachedInput?, output, minCachedPrefixTokens? } }` prices (USD per million tokens)
   * for the cost estimate in `status()` and telemetry, the cached discount masking for cost weighs and the output
   * price a reduction for room weighs. Consulted before the built-in tables (docs/observability.md). @default `{}`
   */
  prices?: PriceTable;
  /**
   * Token counter `{ name, count(text) }`; the default counts o200k_base tokens (js-tiktoken's vocabulary),
   * `splitDigitsTokenizer` counts digits one a token as Gemini does. A count that is not a finite number >= 0 is
   * replaced by the built-in count (one warning). @default `tiktokenTokenizer`
   */
  tokenizer?: Tokenizer;
  /** Where log lines go; conversation text is never logged above debug level. @default ADK's `getLogger()` */
  logger?: GuardLogger;
  /** Called with the audit record of every compaction. A promise it returns is awaited; one that throws is logged. */
  onCompaction?: (record: CompactionRecord) => unknown;
  /** Called with the record of every tool result truncation. It holds the tool, original and kept size. */
  onToolTruncation?: (record: ToolTruncationRecord & { readonly agentName: string }) => void;
  /**
   * Debugging only: keep the summarizer's error text (it can quote the conversation) in compaction records. When
   * the summarizer fails, records carry only the kind of failure (`fallbackReason`: `'timeout'`, `'failed'`,
   * `'empty'`, `'cut'`, `'unavailable'`); set this to also store the text as `fallbackDetail` (session state and event
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

/**
 * An agent's policy as the guard resolved it (`guard.policyFor`): each field is the option of the same name
 * (`AgentPolicy` documents each), the agent's own over the global ones over the constant defaults. A field whose
 * default depends on the window or the model in force (`contextWindow`, `bufferTokens`, `hardLimitRatio`,
 * `summarizer`, `summarizerContextWindow`, `maxPinnedTokens`) is `undefined` unless given, and is computed at each
 * call (docs/configuration.md); `toolOutputTruncation` is `undefined` for the default limits (10 KiB / 256 lines),
 * `false` when off, else the limits given, merged over the defaults when used.
 */
export interface ResolvedPolicy {
  readonly enabled: boolean;
  readonly contextWindow: number | undefined;
  readonly strategy: CompactionStrategy;
  readonly bufferTokens: number | undefined;
  readonly bufferRatio: number;
  readonly reserveOutputTokens: number;
  readonly uncalibratedThresholdRatio: number;
  readonly defaultCorrection: number;
  readonly hardLimitRatio: number | undefined;
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
  readonly budgetLine: boolean;
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
