/** The options set once for the whole plugin, never per agent. Part of the option table. */
import { MAX_TIMER_MS } from './timer-limit.js';
import { BOOLEAN, integer, MAX_PLAUSIBLE_TOKENS, other, type OptionSpec } from './option-spec.js';

export const GLOBAL_OPTIONS = {
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
    long: 'Per-agent policies, by exact agent name, in an object (an array is refused); only own enumerable entries are read. An entry that names no agent of the app is logged once, with the name it likely meant, when the app first runs.',
  },
  modelWindows: {
    scope: 'global',
    range: other('`{ [modelName]: window }`'),
    defaultText: '`{}`',
    short: 'Extra `{ modelName: window }` entries, consulted before the model registry.',
    long: "Consulted before the registry; each window an integer in [1,024, 100,000,000], as `contextWindow`; an empty key is refused. A key that gives no model of the app's agents or summarizers its window is logged once, with the name it likely meant, when the app first runs.",
  },
  prices: {
    scope: 'global',
    range: other('`{ [modelName]: { input, cachedInput?, output, minCachedPrefixTokens? } }`'),
    defaultText: '`{}`',
    short:
      'Extra `{ modelName: { input, cachedInput?, output, minCachedPrefixTokens? } }` prices (USD per million tokens) for the cost estimate in `status()` and telemetry, the cached discount masking for cost weighs and the output price a reduction for room weighs.',
    long: "USD per million tokens, consulted before the built-in price table for the cost estimate ([observability.md](observability.md#cost-estimate)) for the cached discount (`cachedInput` / `input`) that masking for cost weighs, and for the output price (`output` / `input`) at which a reduction for room weighs a summary; `minCachedPrefixTokens` overrides the shortest prefix the provider caches in the simulator's and the benchmark's bills (the dated table of cache terms in [observability.md](observability.md#cache-terms)), while the guard's own decisions take 2,048 tokens for every model (`MIN_CACHED_PREFIX_TOKENS`; review 13) and `status()` bills what the provider reports as cached; a field other than `input`, `cachedInput`, `output`, `minCachedPrefixTokens` and `longContext` (and, in `longContext`, `threshold`, `input`, `cachedInput`, `output`) is refused, naming the one it likely meant, and so are a `cachedInput` above `input` and an empty model name; a key that prices no model of the app's agents or summarizers is logged once, with the name it likely meant, when the app first runs.",
    see: 'docs/observability.md#cost-estimate',
  },
  defaultContextWindow: {
    scope: 'global',
    unit: 'tokens',
    range: integer(1_024, MAX_PLAUSIBLE_TOKENS),
    default: 128_000,
    short:
      'Window assumed for a model no registry knows (with one warning), until a rejection states the real maximum.',
    long: "For a model no registry knows (one warning per name), until the provider states its maximum, which then becomes that model's window: at most one rejected call per model name and user, and per model name and app once two users of that app have rejections stating the same maximum (another app on the same model keeps its own: one tenant's provider account may cap what another's does not).",
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
  measureCacheTokens: {
    scope: 'global',
    unit: 'tokens',
    range: integer(0, MAX_PLAUSIBLE_TOKENS),
    default: 32_000_000,
    short:
      'Tokens of history kept measured in process memory, all sessions together (about 8 bytes of heap a token, twice that in RSS).',
    long: "Tokens of history kept measured in process memory, all sessions and agents together, so that each call measures only what is new. The forty-sixth outside trial measured 7.6 bytes of live heap a kept token on a `DatabaseSessionService` (the cache alone holds those strings between turns) and about twice that in RSS: at the default, up to about 250 MB of heap and 500 MB of RSS a guard. Past it the least recently used sessions are dropped (the session in use is kept whatever its size); a dropped session's next call measures its whole history again, which costs time, never correctness. `0` keeps only the session in use. See [performance.md](performance.md), the memory section.",
    see: 'docs/performance.md',
  },
  tokenizer: {
    scope: 'global',
    range: other('`{ name, count(text) }`'),
    defaultText: '`tiktokenTokenizer`',
    short:
      "Token counter `{ name, count(text) }`; the default counts o200k_base tokens (js-tiktoken's vocabulary), `splitDigitsTokenizer` counts digits one a token as Gemini does.",
    long: "The default counts o200k_base tokens (js-tiktoken's vocabulary), linear-time and sampled. `splitDigitsTokenizer` counts every digit as one token, as Gemini does (o200k takes three a token): for Gemini agents that read numbers in bursts (logs, ids, tables), where a burst of numbers is counted up to 2.7 times its o200k count ([design](design.md#digits-one-token-each)). Any `{ name, count }` serves (a missing or empty `name` is refused: logs and reports say it), e.g. the classic chars/4: `{ name: 'chars4', count: (text) => Math.ceil(text.length / 4) }`. A count that is not a finite number ≥ 0 is replaced by the built-in count, with one warning.",
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
    long: '`(record) => unknown`: a promise it returns is awaited; also `guard.onCompaction(listener)`. A listener that throws is logged and ignored.',
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
