/**
 * Every ContextGuard option, once: name, scope, range, default and a one-line
 * doc. The validator, the resolver's defaults, the known-keys list and the
 * budget and calibration defaults all read it, and a test checks the tables of
 * docs/configuration.md and README.md against it. Plain data, no imports, so
 * any folder may read it without a cycle.
 */

/** `policy`: global or per agent under `agents`; `global`: top level only. */
export type OptionScope = 'policy' | 'global';

export type OptionRange =
  | { readonly type: 'integer'; readonly min: number; readonly max?: number }
  | { readonly type: 'number'; readonly min: number; readonly max: number; readonly minInclusive: boolean }
  | { readonly type: 'boolean' }
  | { readonly type: 'enum'; readonly values: readonly string[] }
  /** Checked by its own validator in options.ts; `text` says what is accepted. */
  | { readonly type: 'other'; readonly text: string };

export interface OptionSpec {
  readonly scope: OptionScope;
  readonly range: OptionRange;
  /** What the number measures, shown before the range in docs. */
  readonly unit?: string;
  /** A rule that depends on another option, shown after the range in docs. */
  readonly rangeNote?: string;
  /** The default when it is a constant; absent when it is computed at run time. */
  readonly default?: number | boolean | string;
  /** The default as docs show it, when it is computed or not a constant. */
  readonly defaultText?: string;
  /** One line, as in the docs table. */
  readonly doc: string;
}

/** Largest delay a JavaScript timer honours (2^31 - 1 ms, about 24.8 days); longer ones fire after 1 ms. */
export const MAX_TIMER_MS = 2_147_483_647;

export const STRATEGY_VALUES = ['threshold', 'sliding-window'] as const;

const integer = (min: number, max?: number): OptionRange =>
  max === undefined ? { type: 'integer', min } : { type: 'integer', min, max };
const between = (min: number, max: number, minInclusive = false): OptionRange => ({
  type: 'number',
  min,
  max,
  minInclusive,
});
const BOOLEAN: OptionRange = { type: 'boolean' };
const other = (text: string): { readonly type: 'other'; readonly text: string } => ({ type: 'other', text });

export const OPTION_TABLE = {
  enabled: { scope: 'policy', range: BOOLEAN, default: true, doc: "`false`: the agent's requests are left alone." },
  contextWindow: {
    scope: 'policy',
    unit: 'tokens',
    range: integer(1_024),
    defaultText: 'registry',
    doc: 'Overrides the model registry; a smaller maximum the provider states in a rejection, in its own words, still wins, with one warning (see Model registry).',
  },
  strategy: {
    scope: 'policy',
    range: { type: 'enum', values: STRATEGY_VALUES },
    default: 'threshold',
    doc: 'How history is compacted.',
  },
  bufferTokens: {
    scope: 'policy',
    unit: 'tokens',
    range: integer(0),
    rangeNote: '< window',
    defaultText: '20,000 (window > 200k), else `bufferRatio` × window',
    doc: 'Kept free below the window: threshold = window − buffer.',
  },
  bufferRatio: {
    scope: 'policy',
    unit: 'fraction',
    range: between(0, 0.9),
    default: 0.2,
    doc: 'Used when `bufferTokens` is unset, windows ≤ 200k.',
  },
  reserveOutputTokens: {
    scope: 'policy',
    unit: 'tokens',
    range: integer(0),
    rangeNote: '< window',
    default: 0,
    doc: "Room for the answer; the request's `maxOutputTokens` is used when larger. The effective buffer is the larger of the two.",
  },
  uncalibratedThresholdRatio: {
    scope: 'policy',
    unit: 'fraction',
    range: between(0.1, 1),
    default: 0.5,
    doc: 'Until the provider has reported one real count, compact by this share of the window at the latest.',
  },
  defaultCorrection: {
    scope: 'policy',
    unit: 'factor',
    range: between(1, 5, true),
    default: 1.5,
    doc: 'Correction applied to the heuristic before any real count.',
  },
  hardLimitRatio: {
    scope: 'policy',
    unit: 'fraction',
    range: between(0.5, 1),
    default: 0.95,
    doc: 'A request is never knowingly sent above this share of the window.',
  },
  compactTargetRatio: {
    scope: 'policy',
    unit: 'fraction',
    range: between(0.1, 0.95),
    default: 0.5,
    doc: 'After a compaction the request uses at most this share of the room below the threshold.',
  },
  summarizer: {
    scope: 'policy',
    range: other('`BaseLlm` or `Summarizer`'),
    defaultText: "the agent's model",
    doc: 'The model that writes summaries.',
  },
  summarizerContextWindow: {
    scope: 'policy',
    unit: 'tokens',
    range: integer(1_024),
    defaultText: "the `Summarizer`'s `contextWindow`, else the model's window",
    doc: "A `BaseLlm` summarizer's window comes from the registry; a `Summarizer` without `contextWindow` gets the agent's window.",
  },
  summarizerTimeoutMs: {
    scope: 'policy',
    unit: 'ms',
    range: integer(1, MAX_TIMER_MS),
    default: 60_000,
    doc: 'Then the fallback summary is used. At most 2^31 − 1 (about 24.8 days), the longest delay a timer honours.',
  },
  summaryMaxTokens: {
    scope: 'policy',
    unit: 'tokens',
    range: integer(32),
    default: 4_096,
    doc: 'Upper bound of a summary; smaller windows get less (25% of the room below the threshold).',
  },
  summarizerInputRatio: {
    scope: 'policy',
    unit: 'fraction',
    range: between(0.1, 0.95),
    default: 0.8,
    doc: "Share of the summarizer's window its input may use; oldest contents dropped first.",
  },
  toolOutputTruncation: {
    scope: 'policy',
    range: other('`false` or limits'),
    defaultText: 'on, 10 KiB / 256 lines',
    doc: "Head+tail cut of oversized tool results, see [truncation.md](truncation.md). An agent's value replaces the global one.",
  },
  pinFirstRequest: {
    scope: 'policy',
    range: BOOLEAN,
    default: false,
    doc: "Pin the session's first user request (the task) so it is never summarized away.",
  },
  maxPinnedTokens: {
    scope: 'policy',
    unit: 'tokens',
    range: integer(0),
    defaultText: '10% of the window',
    doc: 'Cap on all pins of an agent.',
  },
  maskKeepRecent: {
    scope: 'policy',
    unit: 'count',
    range: integer(0),
    default: 1,
    doc: 'Observation masking: when a compaction is due, tool results of completed turns and all but this many of the in-flight turn become placeholders first, with no model call; `0` turns masking off.',
  },
  maskStaleOutputTokens: {
    scope: 'policy',
    unit: 'tokens',
    range: integer(0),
    default: 2_048,
    doc: "Masking for cost: the tool results of completed turns become placeholders at the agent's first call of a turn, with no model call, even with the window far from full, once masking them saves at least this many (estimated) tokens and pays for the provider's cached prefix it breaks over the calls expected before the threshold (weighed with the model's cached price); the in-flight turn is never masked; `0` turns it off, and so does `maskKeepRecent: 0` (see [design.md](design.md#three-remedies-cheapest-first-and-the-providers-cache)).",
  },
  tools: {
    scope: 'policy',
    range: other('`{ [toolName]: { readOnly? } }`'),
    defaultText: '`{}`',
    doc: "Per-tool declarations, by exact tool name (ADK's tools carry none): `readOnly: true` says a call has no side effect, so a masked result's placeholder may suggest calling the tool again; every other tool's placeholder says to read it back with the recall tool instead. An agent's entry for a tool is merged over the global one; a field other than `readOnly` is refused, naming the one it likely meant (see [design.md](design.md#placeholders-never-invite-a-repeated-side-effect)).",
  },
  prepareTurnsAhead: {
    scope: 'policy',
    unit: 'turns',
    range: integer(0),
    default: 1,
    doc: "Background compaction: once the estimate is within this many of the session's average turns of the threshold, the summary is prepared without waiting for it, and applied when the threshold is reached; `0` turns it off (see [reliability.md](reliability.md#background-compaction)).",
  },
  preparedSummaryWaitMs: {
    scope: 'policy',
    unit: 'ms',
    range: integer(0, MAX_TIMER_MS),
    default: 15_000,
    doc: 'Background compaction across replicas: a call at the threshold while another replica prepares the summary re-reads the session for it this long at most, then summarizes itself; `0` never waits (see [reliability.md](reliability.md#background-compaction)).',
  },
  invocationThreshold: {
    scope: 'policy',
    unit: 'turns',
    range: integer(1),
    default: 5,
    doc: 'Sliding window θ: compact once this many turns completed since the last compaction.',
  },
  overlapSize: {
    scope: 'policy',
    unit: 'turns',
    range: integer(0),
    default: 2,
    doc: 'Sliding window ω: completed turns kept verbatim after the summary.',
  },
  safetyRatio: {
    scope: 'policy',
    unit: 'fraction',
    range: between(0.1, 1),
    default: 0.7,
    doc: 'Sliding window ρ: compact early at this share of the window.',
  },
  maxCompactions: {
    scope: 'policy',
    unit: 'count',
    range: integer(1),
    default: 1_000,
    doc: 'Sliding window: no compaction on schedule once the agent has compacted this many times in the session (for any reason); threshold and safety ratio still apply.',
  },
  name: {
    scope: 'global',
    range: other('non-empty string'),
    default: 'context_guard',
    doc: 'Plugin name (ADK rejects duplicates on one Runner).',
  },
  agents: {
    scope: 'global',
    range: other('`{ [agentName]: policy }`'),
    defaultText: '`{}`',
    doc: 'Per-agent policies, by exact agent name; only own enumerable entries are read. An entry that names no agent of the app is logged once, with the name it likely meant, when the app first runs.',
  },
  modelWindows: {
    scope: 'global',
    range: other('`{ [modelName]: window }`'),
    defaultText: '`{}`',
    doc: 'Consulted before the registry.',
  },
  prices: {
    scope: 'global',
    range: other('`{ [modelName]: { input, cachedInput?, output } }`'),
    defaultText: '`{}`',
    doc: "USD per million tokens, consulted before the built-in price table for the cost estimate ([observability.md](observability.md#cost-estimate)) and for the cached discount (`cachedInput` / `input`) that masking for cost weighs; a field other than `input`, `cachedInput`, `output` and `longContext` (and, in `longContext`, `threshold`, `input`, `cachedInput`, `output`) is refused, naming the one it likely meant, and so are a `cachedInput` above `input` and an empty model name; a key that prices no model of the app's agents or summarizers is logged once, with the name it likely meant, when the app first runs.",
  },
  defaultContextWindow: {
    scope: 'global',
    unit: 'tokens',
    range: integer(1_024),
    default: 128_000,
    doc: 'For a model no registry knows (one warning per name), until the provider states its maximum.',
  },
  artifactTimeoutMs: {
    scope: 'global',
    unit: 'ms',
    range: integer(1, MAX_TIMER_MS),
    default: 5_000,
    doc: 'Longest wait for the artifact service when a cut tool result is stored whole; after it the context keeps the cut version alone, with one warning. `contextRecallTool({ artifactTimeoutMs })` bounds its reads the same way, with the same default (see [truncation.md](truncation.md#offloading-the-whole-result-to-an-artifact)).',
  },
  tokenizer: {
    scope: 'global',
    range: other('`{ name, count(text) }`'),
    defaultText: '`tiktokenTokenizer`',
    doc: "Any `{ name, count }` serves, e.g. the classic chars/4: `{ name: 'chars4', count: (text) => Math.ceil(text.length / 4) }`. A count that is not a finite number ≥ 0 is replaced by the built-in count, with one warning.",
  },
  logger: {
    scope: 'global',
    range: other('`{ debug, info, warn, error }`'),
    defaultText: "ADK's `getLogger()`",
    doc: 'Conversation text is never logged above debug level.',
  },
  onCompaction: {
    scope: 'global',
    range: other('function'),
    defaultText: '–',
    doc: '`(record) => void \\| Promise<void>`; also `guard.onCompaction(listener)`.',
  },
  onToolTruncation: {
    scope: 'global',
    range: other('function'),
    defaultText: '–',
    doc: '`(record) => void` for every tool result cut.',
  },
  debugSummarizerErrorText: {
    scope: 'global',
    range: BOOLEAN,
    default: false,
    doc: "Debugging only: also store the summarizer's error text (which can quote the conversation) as `fallbackDetail` in compaction records, in state and event metadata.",
  },
} as const satisfies Record<string, OptionSpec>;

/**
 * The fields of one entry of the `tools` option, with their range, default and doc (shown in
 * docs/configuration.md under "Per-tool declarations"; the validator reads the names from here).
 */
export const TOOL_FIELD_TABLE = {
  readOnly: {
    range: BOOLEAN,
    default: false,
    doc: "A call of the tool changes nothing (a search, a read): calling it again with the same arguments is safe, so a masked result's placeholder may suggest it. Left `false`, the placeholder never does: the tool may create, send or pay for something.",
  },
} as const satisfies Record<string, Omit<OptionSpec, 'scope'>>;

type ToolFieldName = keyof typeof TOOL_FIELD_TABLE;
export const TOOL_FIELD_NAMES = Object.keys(TOOL_FIELD_TABLE) as ToolFieldName[];

export type OptionName = keyof typeof OPTION_TABLE;
type Table = typeof OPTION_TABLE;
export type PolicyOptionName = { [K in OptionName]: Table[K]['scope'] extends 'policy' ? K : never }[OptionName];
export type GlobalOptionName = Exclude<OptionName, PolicyOptionName>;
/** Options whose range the table cannot express (functions, objects): each has its own check in options.ts. */
export type OtherOptionName = {
  [K in OptionName]: Table[K]['range'] extends { readonly type: 'other' } ? K : never;
}[OptionName];

/** Every option name, policy options first, in table order. */
export const OPTION_NAMES = Object.keys(OPTION_TABLE) as OptionName[];
export const POLICY_OPTION_NAMES = OPTION_NAMES.filter(
  (name): name is PolicyOptionName => OPTION_TABLE[name].scope === 'policy',
);

/** The constant default of `name` (typed from the table). */
export function optionDefault<K extends OptionName>(
  name: K,
): Table[K] extends { readonly default: infer D } ? D : undefined {
  const spec: OptionSpec = OPTION_TABLE[name];
  return spec.default as Table[K] extends { readonly default: infer D } ? D : undefined;
}
