/**
 * Every ContextGuard option, once, nested fields included: name, scope, range,
 * default (a computed one as words built from its constants), a short text and
 * a long text. The validator, the resolver's defaults, the known-keys list, the
 * budget, pin and truncation defaults all read it; `npm run docs:options`
 * writes the options tables of README.md (short texts) and docs/ (long texts)
 * from it, and option-table.test.ts fails when a doc or a field's TSDoc in
 * options.ts drifts from it. Plain data, no imports, so any folder may read it
 * without a cycle.
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
  /** One sentence: the README table's text, and the start of the field's TSDoc. */
  readonly short: string;
  /** Everything a user may need to know (markdown, links relative to docs/): docs/configuration.md's text. */
  readonly long: string;
  /** A doc the README row links to after the short text (relative to the repository root). */
  readonly see?: string;
}

/** Largest delay a JavaScript timer honours (2^31 - 1 ms, about 24.8 days); longer ones fire after 1 ms. */
/** Largest delay a JavaScript timer honours (2^31 - 1 ms, about 24.8 days); longer ones fire after 1 ms. */
export const MAX_TIMER_MS = 2_147_483_647;

export const STRATEGY_VALUES = ['threshold', 'sliding-window'] as const;

// The constants behind the computed defaults, so the words the docs show and the code that computes them agree.
/** Windows above this get a fixed buffer instead of a share. */
export const LARGE_WINDOW = 200_000;
/** The buffer of a window above `LARGE_WINDOW` when `bufferTokens` is unset. */
export const LARGE_WINDOW_BUFFER = 20_000;
/** Share of the window the pins get when `maxPinnedTokens` is not set. */
export const DEFAULT_PIN_SHARE = 0.1;
/** Share of the window the pins never pass, whatever `maxPinnedTokens` says. */
export const MAX_PIN_SHARE = 0.5;
/** Below this a truncated result cannot hold a marker and any content, so smaller `maxBytes` are refused. */
const MIN_MAX_BYTES = 256;

type IntegerRange = Extract<OptionRange, { readonly type: 'integer' }>;
const integer = (min: number, max?: number): IntegerRange =>
  max === undefined ? { type: 'integer', min } : { type: 'integer', min, max };
const between = (min: number, max: number, minInclusive = false): OptionRange => ({
  type: 'number',
  min,
  max,
  minInclusive,
});
const BOOLEAN: OptionRange = { type: 'boolean' };
const other = (text: string): { readonly type: 'other'; readonly text: string } => ({ type: 'other', text });
/** A figure as the docs write it (20,000). */
const figure = (value: number): string => value.toLocaleString('en-US');
const percent = (share: number): string => `${Math.round(share * 100)}%`;

/**
 * The fields of `toolOutputTruncation` (and of each of its per-tool overrides): range, default
 * and texts; truncation/policy.ts reads its minimums and defaults from here.
 */
export const TRUNCATION_FIELD_TABLE = {
  maxBytes: {
    unit: 'bytes',
    range: integer(MIN_MAX_BYTES),
    default: 10_240,
    short: 'Largest result, in UTF-8 bytes of its JSON text (what the model receives), before it is cut.',
    long: 'Largest result, in UTF-8 bytes of its JSON text (what the model receives), before it is cut; 10,240 is 10 KiB. Smaller than 256, a result could not hold the marker and any content.',
  },
  maxLines: {
    unit: 'lines',
    range: integer(1),
    default: 256,
    short: 'Most lines a string field of the result may have before it is cut.',
    long: 'Most lines a string field of the result may have before it is cut.',
  },
  headLines: {
    unit: 'lines',
    range: integer(0),
    rangeNote: '`headLines + tailLines` in [1, `maxLines`]',
    default: 128,
    short: 'Lines kept from the start of a string that is cut.',
    long: "Lines kept from the start of a string that is cut. With `tailLines`, checked after merging each tool's override over the global limits, so a string one line over the limit always loses at least one line.",
  },
  tailLines: {
    unit: 'lines',
    range: integer(0),
    rangeNote: '`headLines + tailLines` in [1, `maxLines`]',
    default: 128,
    short: 'Lines kept from the end of a string that is cut.',
    long: 'Lines kept from the end of a string that is cut.',
  },
  tools: {
    range: other('`{ [toolName]: false \\| limits }`'),
    defaultText: '`{}`',
    short: 'Per-tool overrides by tool name, merged over the limits above; `false` leaves that tool alone.',
    long: 'Per-tool overrides by exact tool name, merged over the limits above; `false` turns truncation off for that tool.',
  },
} as const satisfies Record<string, Omit<OptionSpec, 'scope'>>;

const TRUNCATION = TRUNCATION_FIELD_TABLE;

export const OPTION_TABLE = {
  enabled: {
    scope: 'policy',
    range: BOOLEAN,
    default: true,
    short: "`false` leaves the agent's requests alone.",
    long: "`false`: the agent's requests are left alone.",
  },
  contextWindow: {
    scope: 'policy',
    unit: 'tokens',
    range: integer(1_024),
    defaultText: 'registry, else `defaultContextWindow`',
    short: 'Window in tokens; overrides the model registry.',
    long: 'Overrides the model registry; a smaller maximum the provider states in a rejection still wins, with one warning: only its own statement at the start of its error, never text of the request it quotes, and never below 1,024 or a request the model accepted (see Model registry).',
  },
  strategy: {
    scope: 'policy',
    range: { type: 'enum', values: STRATEGY_VALUES },
    default: 'threshold',
    short: 'How history is compacted.',
    long: 'How history is compacted: at a token threshold, or every `invocationThreshold` turns (the sliding window, see [design.md](design.md)).',
  },
  bufferTokens: {
    scope: 'policy',
    unit: 'tokens',
    range: integer(0),
    rangeNote: '< window',
    defaultText: `${figure(LARGE_WINDOW_BUFFER)} (window > ${LARGE_WINDOW / 1_000}k), else \`bufferRatio\` × window`,
    short: 'Tokens kept free below the window; threshold = window − buffer.',
    long: 'Kept free below the window: threshold = window − buffer.',
  },
  bufferRatio: {
    scope: 'policy',
    unit: 'fraction',
    range: between(0, 0.9),
    default: 0.2,
    short: `Buffer as a fraction of the window when \`bufferTokens\` is unset (windows up to ${LARGE_WINDOW / 1_000}k).`,
    long: `Used when \`bufferTokens\` is unset, windows ≤ ${LARGE_WINDOW / 1_000}k.`,
  },
  reserveOutputTokens: {
    scope: 'policy',
    unit: 'tokens',
    range: integer(0),
    rangeNote: '< window',
    default: 0,
    short:
      "Room kept for the answer (the request's `maxOutputTokens` when larger); the effective buffer is the larger of the two.",
    long: "Room for the answer; the request's `maxOutputTokens` is used when larger. The effective buffer is the larger of the two.",
  },
  uncalibratedThresholdRatio: {
    scope: 'policy',
    unit: 'fraction',
    range: between(0.1, 1),
    default: 0.5,
    short: 'Until the provider has reported one real count, compact by this fraction of the window at the latest.',
    long: 'Until the provider has reported one real count, compact by this share of the window at the latest (the adaptive buffer: the only protection against a wrong default correction for providers that never report usage).',
  },
  defaultCorrection: {
    scope: 'policy',
    unit: 'factor',
    range: between(1, 5, true),
    default: 1.5,
    short: 'Correction applied to the heuristic before any real count exists.',
    long: 'Correction applied to the heuristic before any real count.',
  },
  hardLimitRatio: {
    scope: 'policy',
    unit: 'fraction',
    range: between(0.5, 1),
    default: 0.95,
    short: 'A request is never knowingly sent above this fraction of the window.',
    long: 'A request is never knowingly sent above this share of the window.',
  },
  compactTargetRatio: {
    scope: 'policy',
    unit: 'fraction',
    range: between(0.1, 0.95),
    default: 0.5,
    short: 'After a compaction the request uses at most this fraction of the room below the threshold.',
    long: 'After a compaction the request uses at most this share of the room below the threshold.',
  },
  summarizer: {
    scope: 'policy',
    range: other('`BaseLlm` or `Summarizer`'),
    defaultText: "the agent's model",
    short:
      'The model that writes summaries: an ADK `BaseLlm` or a `Summarizer` (`{ name, summarize(), contextWindow? }`).',
    long: 'The model that writes summaries: an ADK `BaseLlm`, or a `Summarizer` of your own (see A custom summarizer).',
  },
  summarizerContextWindow: {
    scope: 'policy',
    unit: 'tokens',
    range: integer(1_024),
    defaultText: "the `Summarizer`'s `contextWindow`, else the model's window",
    short: "Window of the summarizer, when it differs from the agent's.",
    long: "A `BaseLlm` summarizer's window comes from the registry; a `Summarizer` without `contextWindow` gets the agent's window.",
  },
  summarizerTimeoutMs: {
    scope: 'policy',
    unit: 'ms',
    range: integer(1, MAX_TIMER_MS),
    default: 60_000,
    short: 'After this, the mechanical fallback summary is used (at most 2^31 − 1 ms, what a timer honours).',
    long: 'Then the mechanical fallback summary is used. At most 2^31 − 1 (about 24.8 days), the longest delay a timer honours (a timer fires after 1 ms beyond it, so larger values are refused).',
  },
  summaryMaxTokens: {
    scope: 'policy',
    unit: 'tokens',
    range: integer(32),
    default: 4_096,
    short: 'Upper bound of a summary (smaller windows get less).',
    long: 'Upper bound of a summary; smaller windows get less (25% of the room below the threshold).',
  },
  summarizerInputRatio: {
    scope: 'policy',
    unit: 'fraction',
    range: between(0.1, 0.95),
    default: 0.8,
    short: "Share of the summarizer's window its input may use; oldest contents dropped first.",
    long: "Share of the summarizer's window its input may use; oldest contents dropped first.",
  },
  toolOutputTruncation: {
    scope: 'policy',
    range: other('`false` or limits'),
    defaultText: `on, ${TRUNCATION.maxBytes.default / 1_024} KiB / ${TRUNCATION.maxLines.default} lines`,
    short: 'Head+tail cut of oversized tool results; `false` turns it off; per-tool limits under `tools`.',
    long: "Head+tail cut of oversized tool results (its fields below, and [truncation.md](truncation.md)); `false` turns it off. An agent's value replaces the global one. With an `artifactService` on the Runner, the whole result is also stored as an artifact that the recall tool can read ([truncation.md](truncation.md#offloading-the-whole-result-to-an-artifact)).",
    see: 'docs/truncation.md#offloading-the-whole-result-to-an-artifact',
  },
  pinFirstRequest: {
    scope: 'policy',
    range: BOOLEAN,
    default: false,
    short: "Pin the user's first request of the session (the task), so it is never summarized away.",
    long: "Pin the session's first user request (the task) so it is never summarized away.",
  },
  maxPinnedTokens: {
    scope: 'policy',
    unit: 'tokens',
    range: integer(0),
    rangeNote: 'at most half the window applies',
    defaultText: `${percent(DEFAULT_PIN_SHARE)} of the window`,
    short: 'Cap on the tokens all pins of an agent may take; never more than half the window.',
    long: `Cap on all pins of an agent; never more than half the window (${percent(MAX_PIN_SHARE)}), whatever the value, checked against the window in force before every request: when the window shrinks, the oldest pins are left out first (see [memory.md](memory.md)).`,
  },
  maskKeepRecent: {
    scope: 'policy',
    unit: 'count',
    range: integer(0),
    default: 1,
    short:
      'Observation masking: when a compaction is due, the tool results of completed turns and all but this many of the in-flight turn are first replaced by placeholders, with no model call; `0` turns masking off.',
    long: 'Observation masking: when a compaction is due, tool results of completed turns and all but this many of the in-flight turn become placeholders first, with no model call; the summarizer runs only when that is not enough; `0` turns masking off.',
  },
  maskStaleOutputTokens: {
    scope: 'policy',
    unit: 'tokens',
    range: integer(0),
    default: 2_048,
    short:
      "Masking for cost: the tool results of completed turns become placeholders at a turn's first call, with no model call, even with the window far from full, once that saves at least this many tokens and pays for the provider's cached prefix it breaks; `0` turns it off, and so does `maskKeepRecent: 0`.",
    long: "Masking for cost: the tool results of completed turns become placeholders at the agent's first call of a turn, with no model call, even with the window far from full, once masking them saves at least this many (estimated) tokens and pays for the provider's cached prefix it breaks over the calls expected before the threshold (weighed with the model's cached price); the in-flight turn is never masked; `0` turns it off, and so does `maskKeepRecent: 0` (see [design.md](design.md#three-remedies-cheapest-first-and-the-providers-cache)).",
    see: 'docs/design.md#three-remedies-cheapest-first-and-the-providers-cache',
  },
  tools: {
    scope: 'policy',
    range: other('`{ [toolName]: { readOnly? } }`'),
    defaultText: '`{}`',
    short:
      "Per-tool declarations by exact tool name, e.g. `{ search_orders: { readOnly: true } }` for a tool whose calls change nothing: only its masked results' placeholders may suggest calling it again.",
    long: "Per-tool declarations, by exact tool name (ADK's tools carry none; its fields below): `readOnly: true` says a call has no side effect, so a masked result's placeholder may suggest calling the tool again; every other tool's placeholder says to read it back with the recall tool instead, which the guard declares itself wherever masking for cost is on. An agent's entry for a tool is merged over the global one; a field other than `readOnly` is refused, naming the one it likely meant (see [design.md](design.md#placeholders-never-invite-a-repeated-side-effect)).",
    see: 'docs/configuration.md#per-tool-declarations-tools',
  },
  prepareTurnsAhead: {
    scope: 'policy',
    unit: 'turns',
    range: integer(0),
    default: 1,
    short:
      "Background compaction: within this many of the session's average turns of the threshold, the summary is prepared without waiting for it and applied at the threshold; `0` turns it off.",
    long: "Background compaction: once the estimate is within this many of the session's average turns of the threshold, the summary is prepared without waiting for it, and applied when the threshold is reached if still valid, so no turn waits for the summarizer; `0` turns it off (see [reliability.md](reliability.md#background-compaction)).",
    see: 'docs/reliability.md#background-compaction',
  },
  preparedSummaryWaitMs: {
    scope: 'policy',
    unit: 'ms',
    range: integer(0, MAX_TIMER_MS),
    default: 15_000,
    short:
      'Background compaction across replicas: a call at the threshold while another replica prepares the summary re-reads the session for it this long at most (ms), then summarizes itself; `0` never waits.',
    long: 'Background compaction across replicas: a call at the threshold while another replica prepares the summary re-reads the session for it this long at most, then summarizes itself; `0` never waits (see [reliability.md](reliability.md#background-compaction)).',
    see: 'docs/reliability.md#background-compaction',
  },
  invocationThreshold: {
    scope: 'policy',
    unit: 'turns',
    range: integer(1),
    default: 5,
    short: 'Sliding window (θ): compact once this many turns completed since the last compaction.',
    long: 'Sliding window θ: compact once this many turns completed since the last compaction.',
  },
  overlapSize: {
    scope: 'policy',
    unit: 'turns',
    range: integer(0),
    default: 2,
    short: 'Sliding window (ω): completed turns kept verbatim after the summary.',
    long: 'Sliding window ω: completed turns kept verbatim after the summary, for continuity.',
  },
  safetyRatio: {
    scope: 'policy',
    unit: 'fraction',
    range: between(0.1, 1),
    default: 0.7,
    short: 'Sliding window (ρ): compact early when the request reaches this fraction of the window.',
    long: 'Sliding window ρ: compact early at this share of the window.',
  },
  maxCompactions: {
    scope: 'policy',
    unit: 'count',
    range: integer(1),
    default: 1_000,
    short: 'Sliding window: scheduled compactions stop after this many in a session.',
    long: 'Sliding window: no compaction on schedule once the agent has compacted this many times in the session (for any reason); threshold and safety ratio still apply, so requests keep fitting.',
  },
  name: {
    scope: 'global',
    range: other('non-empty string'),
    default: 'context_guard',
    short: 'Plugin name, as ADK shows it.',
    long: 'Plugin name (ADK rejects duplicates on one Runner).',
  },
  agents: {
    scope: 'global',
    range: other('`{ [agentName]: policy }`'),
    defaultText: '`{}`',
    short:
      'Per-agent policies by exact agent name, merged over the global values; an agent not listed gets the global values.',
    long: 'Per-agent policies, by exact agent name; only own enumerable entries are read. An entry that names no agent of the app is logged once, with the name it likely meant, when the app first runs.',
  },
  modelWindows: {
    scope: 'global',
    range: other('`{ [modelName]: window }`'),
    defaultText: '`{}`',
    short: 'Extra `{ modelName: window }` entries, consulted before the model registry.',
    long: 'Consulted before the registry; each window an integer ≥ 1,024.',
  },
  prices: {
    scope: 'global',
    range: other('`{ [modelName]: { input, cachedInput?, output } }`'),
    defaultText: '`{}`',
    short:
      'Extra `{ modelName: { input, cachedInput?, output } }` prices (USD per million tokens) for the cost estimate in `status()` and telemetry, and for the cached discount masking for cost weighs.',
    long: "USD per million tokens, consulted before the built-in price table for the cost estimate ([observability.md](observability.md#cost-estimate)) and for the cached discount (`cachedInput` / `input`) that masking for cost weighs; a field other than `input`, `cachedInput`, `output` and `longContext` (and, in `longContext`, `threshold`, `input`, `cachedInput`, `output`) is refused, naming the one it likely meant, and so are a `cachedInput` above `input` and an empty model name; a key that prices no model of the app's agents or summarizers is logged once, with the name it likely meant, when the app first runs.",
    see: 'docs/observability.md#cost-estimate',
  },
  defaultContextWindow: {
    scope: 'global',
    unit: 'tokens',
    range: integer(1_024),
    default: 128_000,
    short:
      'Window assumed for a model no registry knows (with one warning), until a rejection states the real maximum.',
    long: "For a model no registry knows (one warning per name), until the provider states its maximum, which then becomes that model's window: at most one rejected call per model name.",
  },
  artifactTimeoutMs: {
    scope: 'global',
    unit: 'ms',
    range: integer(1, MAX_TIMER_MS),
    default: 5_000,
    short:
      'Longest wait, in ms, for the artifact service when a cut tool result is stored whole; then the cut version alone is kept, with one warning.',
    long: 'Longest wait for the artifact service when a cut tool result is stored whole; after it the context keeps the cut version alone, with one warning, so a storage call that never returns cannot hang the turn. `contextRecallTool({ artifactTimeoutMs })` bounds its reads the same way, with the same default (see [truncation.md](truncation.md#offloading-the-whole-result-to-an-artifact)).',
    see: 'docs/truncation.md#offloading-the-whole-result-to-an-artifact',
  },
  tokenizer: {
    scope: 'global',
    range: other('`{ name, count(text) }`'),
    defaultText: '`tiktokenTokenizer`',
    short: "Token counter `{ name, count(text) }`; the default counts o200k_base tokens (js-tiktoken's vocabulary).",
    long: "The default counts o200k_base tokens (js-tiktoken's vocabulary), linear-time and sampled. Any `{ name, count }` serves, e.g. the classic chars/4: `{ name: 'chars4', count: (text) => Math.ceil(text.length / 4) }`. A count that is not a finite number ≥ 0 is replaced by the built-in count, with one warning.",
  },
  logger: {
    scope: 'global',
    range: other('`{ debug, info, warn, error }`'),
    defaultText: "ADK's `getLogger()`",
    short: 'Where log lines go; conversation text is never logged above debug level.',
    long: 'Conversation text is never logged above debug level.',
  },
  onCompaction: {
    scope: 'global',
    range: other('function'),
    defaultText: '–',
    short: 'Called with the audit record of every compaction.',
    long: '`(record) => void \\| Promise<void>`; also `guard.onCompaction(listener)`. A listener that throws is logged and ignored.',
  },
  onToolTruncation: {
    scope: 'global',
    range: other('function'),
    defaultText: '–',
    short: 'Called with the record of every tool result truncation.',
    long: '`(record) => void` for every tool result cut (tool, original and kept size).',
  },
  debugSummarizerErrorText: {
    scope: 'global',
    range: BOOLEAN,
    default: false,
    short: "Debugging only: keep the summarizer's error text (it can quote the conversation) in compaction records.",
    long: "Debugging only: also store the summarizer's error text (which can quote the conversation) as `fallbackDetail` in compaction records, in state and event metadata.",
  },
} as const satisfies Record<string, OptionSpec>;

/**
 * The fields of one entry of the `tools` option, with their range, default and texts (shown in
 * docs/configuration.md under "Per-tool declarations"; the validator reads the names from here).
 */
export const TOOL_FIELD_TABLE = {
  readOnly: {
    range: BOOLEAN,
    default: false,
    short:
      "A call of the tool changes nothing (a search, a read), so a masked result's placeholder may suggest calling it again.",
    long: "A call of the tool changes nothing (a search, a read): calling it again with the same arguments is safe, so a masked result's placeholder may suggest it. Left `false`, the placeholder never does: the tool may create, send or pay for something.",
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
