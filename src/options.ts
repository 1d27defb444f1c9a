/**
 * ContextGuard options: one exported type, documented field by field, and one
 * resolver that applies defaults and validates. Every invalid value throws a
 * `ContextGuardConfigError` at construction that names the field.
 */
import type { Tokenizer } from './estimate/tokenizer.js';
import { ContextGuardConfigError } from './errors.js';
import type { Summarizer } from './compaction/summarizer.js';
import type { CompactionRecord } from './records/compaction-record.js';
import type { ToolTruncationRecord } from './truncation/truncate-tool-output.js';
import { validateToolOutputTruncation, type ToolOutputTruncation } from './truncation/truncation-policy.js';

/** Strategies a policy can use. */
export type CompactionStrategy = 'threshold' | 'sliding-window';
export const STRATEGIES: readonly CompactionStrategy[] = ['threshold', 'sliding-window'];

/**
 * A summarizer: an ADK `BaseLlm` (anything with `generateContentAsync`) or a
 * `Summarizer`. Typed structurally so this module stays free of ADK imports.
 */
export type SummarizerOption = Summarizer | { readonly model: string; generateContentAsync: (...args: never[]) => unknown };

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
  /** Fraction of the window kept free when `bufferTokens` is not set (windows up to 200k). @default 0.2 (range 0 < r < 1) */
  bufferRatio?: number;
  /**
   * Tokens reserved for the model's answer. The request's own `config.maxOutputTokens` is used when set.
   * The effective buffer is the larger of this and the buffer. @default 0
   */
  reserveOutputTokens?: number;
  /** While no real token count has been seen, compaction starts by this fraction of the window at the latest. @default 0.5 */
  uncalibratedThresholdRatio?: number;
  /** Correction applied to the heuristic before any real count exists. @default 1.5 (range 1..5) */
  defaultCorrection?: number;
  /** A request is never knowingly sent above this fraction of the window. @default 0.95 */
  hardLimitRatio?: number;
  /** After a compaction, the request should use at most this fraction of the room below the threshold. @default 0.5 */
  compactTargetRatio?: number;
  /** The model that writes summaries. @default the agent's own model */
  summarizer?: SummarizerOption;
  /** Context window of the summarizer, when it differs from the agent's. @default from the registry */
  summarizerContextWindow?: number;
  /** Milliseconds before a summarizer call is abandoned for the fallback summary. @default 60,000 */
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
   * Observation masking: when a compaction is due, every tool result but this many most recent
   * ones is first replaced by a placeholder, with no model call; the summarizer runs only when
   * that is not enough. `0` turns masking off. @default 3
   */
  maskKeepRecent?: number;
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
  /** Per-agent policies, merged over the defaults above. An agent not listed gets the defaults. */
  agents?: Record<string, AgentPolicy>;
  /** Extra context windows by model name, consulted before the built-in registry. */
  modelWindows?: Record<string, number>;
  /** Window assumed for a model no registry knows. @default 128,000 */
  defaultContextWindow?: number;
  /** Token counter. @default `tiktokenTokenizer`: o200k_base (js-tiktoken's vocabulary), linear-time and sampled */
  tokenizer?: Tokenizer;
  /** Where log lines go. @default ADK's logger */
  logger?: GuardLogger;
  /** Called with the audit record of every compaction. A listener that throws is logged and ignored. */
  onCompaction?: (record: CompactionRecord) => void | Promise<void>;
  /** Called with the record of every tool result truncation (tool, original and kept size). */
  onToolTruncation?: (record: ToolTruncationRecord & { readonly agentName: string }) => void;
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
  readonly invocationThreshold: number;
  readonly overlapSize: number;
  readonly safetyRatio: number;
  readonly maxCompactions: number;
}

export const POLICY_DEFAULTS: Omit<ResolvedPolicy, 'contextWindow' | 'bufferTokens' | 'summarizer' | 'summarizerContextWindow' | 'maxPinnedTokens' | 'toolOutputTruncation'> = {
  enabled: true,
  strategy: 'threshold',
  bufferRatio: 0.2,
  reserveOutputTokens: 0,
  uncalibratedThresholdRatio: 0.5,
  defaultCorrection: 1.5,
  hardLimitRatio: 0.95,
  compactTargetRatio: 0.5,
  summarizerTimeoutMs: 60_000,
  summaryMaxTokens: 4_096,
  summarizerInputRatio: 0.8,
  pinFirstRequest: false,
  invocationThreshold: 5,
  overlapSize: 2,
  safetyRatio: 0.7,
  maskKeepRecent: 1,
  maxCompactions: 1_000,
};

function checkInteger(path: string, value: unknown, min: number): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new ContextGuardConfigError(path, value, `must be an integer >= ${min}`);
  }
}

function checkRatio(path: string, value: unknown, min: number, max: number, inclusiveMin = false): void {
  if (value === undefined) return;
  const ok = typeof value === 'number' && Number.isFinite(value) && (inclusiveMin ? value >= min : value > min) && value <= max;
  if (!ok) throw new ContextGuardConfigError(path, value, `must be a number in ${inclusiveMin ? '[' : '('}${min}, ${max}]`);
}

function checkSummarizer(path: string, value: unknown): void {
  if (value === undefined) return;
  const ok =
    typeof value === 'object' &&
    value !== null &&
    (typeof (value as { summarize?: unknown }).summarize === 'function' ||
      typeof (value as { generateContentAsync?: unknown }).generateContentAsync === 'function');
  if (!ok) throw new ContextGuardConfigError(path, value, 'must be an ADK BaseLlm or a Summarizer ({ name, summarize })');
}

/** Validates one policy; `prefix` names it in errors (`''` or `agents.<name>.`). */
export function validatePolicy(policy: AgentPolicy, prefix: string): void {
  if (typeof policy !== 'object' || policy === null) throw new ContextGuardConfigError(prefix.replace(/\.$/, '') || 'options', policy, 'must be an object');
  if (policy.enabled !== undefined && typeof policy.enabled !== 'boolean') {
    throw new ContextGuardConfigError(`${prefix}enabled`, policy.enabled, 'must be a boolean');
  }
  checkInteger(`${prefix}contextWindow`, policy.contextWindow, 1_024);
  if (policy.strategy !== undefined && !STRATEGIES.includes(policy.strategy)) {
    throw new ContextGuardConfigError(`${prefix}strategy`, policy.strategy, `must be one of ${STRATEGIES.map((s) => `'${s}'`).join(', ')}`);
  }
  checkInteger(`${prefix}bufferTokens`, policy.bufferTokens, 0);
  checkRatio(`${prefix}bufferRatio`, policy.bufferRatio, 0, 0.9);
  checkInteger(`${prefix}reserveOutputTokens`, policy.reserveOutputTokens, 0);
  checkRatio(`${prefix}uncalibratedThresholdRatio`, policy.uncalibratedThresholdRatio, 0.1, 1);
  if (policy.defaultCorrection !== undefined && (typeof policy.defaultCorrection !== 'number' || !(policy.defaultCorrection >= 1 && policy.defaultCorrection <= 5))) {
    throw new ContextGuardConfigError(`${prefix}defaultCorrection`, policy.defaultCorrection, 'must be a number in [1, 5]');
  }
  checkRatio(`${prefix}hardLimitRatio`, policy.hardLimitRatio, 0.5, 1);
  checkRatio(`${prefix}compactTargetRatio`, policy.compactTargetRatio, 0.1, 0.95);
  checkSummarizer(`${prefix}summarizer`, policy.summarizer);
  checkInteger(`${prefix}summarizerContextWindow`, policy.summarizerContextWindow, 1_024);
  checkInteger(`${prefix}summarizerTimeoutMs`, policy.summarizerTimeoutMs, 1);
  checkInteger(`${prefix}summaryMaxTokens`, policy.summaryMaxTokens, 32);
  checkRatio(`${prefix}summarizerInputRatio`, policy.summarizerInputRatio, 0.1, 0.95);
  validateToolOutputTruncation(policy.toolOutputTruncation, `${prefix}toolOutputTruncation`);
  if (policy.pinFirstRequest !== undefined && typeof policy.pinFirstRequest !== 'boolean') {
    throw new ContextGuardConfigError(`${prefix}pinFirstRequest`, policy.pinFirstRequest, 'must be a boolean');
  }
  checkInteger(`${prefix}maxPinnedTokens`, policy.maxPinnedTokens, 0);
  checkInteger(`${prefix}invocationThreshold`, policy.invocationThreshold, 1);
  checkInteger(`${prefix}overlapSize`, policy.overlapSize, 0);
  checkRatio(`${prefix}safetyRatio`, policy.safetyRatio, 0.1, 1);
  checkInteger(`${prefix}maxCompactions`, policy.maxCompactions, 1);
  checkInteger(`${prefix}maskKeepRecent`, policy.maskKeepRecent, 0);
  checkFitsWindow(prefix, policy, policy.contextWindow);
}

/** Buffer and output reserve must each leave room in the window (the agent's own, or the global one). */
function checkFitsWindow(prefix: string, policy: AgentPolicy, window: number | undefined): void {
  if (window === undefined) return;
  for (const field of ['bufferTokens', 'reserveOutputTokens'] as const) {
    const value = policy[field];
    if (value !== undefined && value >= window) {
      throw new ContextGuardConfigError(`${prefix}${field}`, value, `must be smaller than the context window (${window})`);
    }
  }
}

/** Validates all options; throws `ContextGuardConfigError` on the first invalid field. */
export function validateOptions(options: ContextGuardOptions): void {
  if (typeof options !== 'object' || options === null) throw new ContextGuardConfigError('options', options, 'must be an object');
  validatePolicy(options, '');
  if (options.name !== undefined && (typeof options.name !== 'string' || options.name.length === 0)) {
    throw new ContextGuardConfigError('name', options.name, 'must be a non-empty string');
  }
  checkInteger('defaultContextWindow', options.defaultContextWindow, 1_024);
  if (options.modelWindows !== undefined && (typeof options.modelWindows !== 'object' || options.modelWindows === null || Array.isArray(options.modelWindows))) {
    throw new ContextGuardConfigError('modelWindows', options.modelWindows, 'must be an object of { modelName: window }');
  }
  if (options.logger !== undefined) {
    const logger = options.logger as Partial<Record<keyof GuardLogger, unknown>> | null;
    if (typeof logger !== 'object' || logger === null || !(['debug', 'info', 'warn', 'error'] as const).every((level) => typeof logger[level] === 'function')) {
      throw new ContextGuardConfigError('logger', options.logger, 'must have debug, info, warn and error methods');
    }
  }
  for (const [model, window] of Object.entries(options.modelWindows ?? {})) checkInteger(`modelWindows.${model}`, window, 1_024);
  if (options.tokenizer !== undefined && typeof options.tokenizer?.count !== 'function') {
    throw new ContextGuardConfigError('tokenizer', options.tokenizer, 'must have a count(text) method');
  }
  if (options.onCompaction !== undefined && typeof options.onCompaction !== 'function') {
    throw new ContextGuardConfigError('onCompaction', options.onCompaction, 'must be a function');
  }
  if (options.onToolTruncation !== undefined && typeof options.onToolTruncation !== 'function') {
    throw new ContextGuardConfigError('onToolTruncation', options.onToolTruncation, 'must be a function');
  }
  if (options.agents !== undefined && (typeof options.agents !== 'object' || options.agents === null)) {
    throw new ContextGuardConfigError('agents', options.agents, 'must be an object keyed by agent name');
  }
  for (const [agentName, policy] of Object.entries(options.agents ?? {})) {
    validatePolicy(policy, `agents.${agentName}.`);
    // The agent's effective buffer and reserve (its own or the global ones) must fit its effective window.
    const effective: AgentPolicy = {
      bufferTokens: policy.bufferTokens ?? options.bufferTokens,
      reserveOutputTokens: policy.reserveOutputTokens ?? options.reserveOutputTokens,
    };
    checkFitsWindow(`agents.${agentName}.`, effective, policy.contextWindow ?? options.contextWindow);
  }
}

/** The policy for `agentName`: defaults, then the global options, then the agent's own. */
export function resolvePolicy(options: ContextGuardOptions, agentName: string): ResolvedPolicy {
  const own = options.agents?.[agentName] ?? {};
  const pick = <K extends keyof AgentPolicy>(key: K): AgentPolicy[K] => (own[key] !== undefined ? own[key] : options[key]);
  return {
    enabled: pick('enabled') ?? POLICY_DEFAULTS.enabled,
    contextWindow: pick('contextWindow'),
    strategy: pick('strategy') ?? POLICY_DEFAULTS.strategy,
    bufferTokens: pick('bufferTokens'),
    bufferRatio: pick('bufferRatio') ?? POLICY_DEFAULTS.bufferRatio,
    reserveOutputTokens: pick('reserveOutputTokens') ?? POLICY_DEFAULTS.reserveOutputTokens,
    uncalibratedThresholdRatio: pick('uncalibratedThresholdRatio') ?? POLICY_DEFAULTS.uncalibratedThresholdRatio,
    defaultCorrection: pick('defaultCorrection') ?? POLICY_DEFAULTS.defaultCorrection,
    hardLimitRatio: pick('hardLimitRatio') ?? POLICY_DEFAULTS.hardLimitRatio,
    compactTargetRatio: pick('compactTargetRatio') ?? POLICY_DEFAULTS.compactTargetRatio,
    summarizer: pick('summarizer'),
    summarizerContextWindow: pick('summarizerContextWindow'),
    summarizerTimeoutMs: pick('summarizerTimeoutMs') ?? POLICY_DEFAULTS.summarizerTimeoutMs,
    summaryMaxTokens: pick('summaryMaxTokens') ?? POLICY_DEFAULTS.summaryMaxTokens,
    summarizerInputRatio: pick('summarizerInputRatio') ?? POLICY_DEFAULTS.summarizerInputRatio,
    toolOutputTruncation: pick('toolOutputTruncation'),
    pinFirstRequest: pick('pinFirstRequest') ?? POLICY_DEFAULTS.pinFirstRequest,
    maxPinnedTokens: pick('maxPinnedTokens'),
    invocationThreshold: pick('invocationThreshold') ?? POLICY_DEFAULTS.invocationThreshold,
    overlapSize: pick('overlapSize') ?? POLICY_DEFAULTS.overlapSize,
    safetyRatio: pick('safetyRatio') ?? POLICY_DEFAULTS.safetyRatio,
    maxCompactions: pick('maxCompactions') ?? POLICY_DEFAULTS.maxCompactions,
    maskKeepRecent: pick('maskKeepRecent') ?? POLICY_DEFAULTS.maskKeepRecent,
  };
}
