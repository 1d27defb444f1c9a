/**
 * The options that set the budget of an agent's requests: the window, the
 * buffer below it, the hard limit, the correction before the first real
 * count, and how far a compaction goes. Part of the option table.
 */
import { BOOLEAN, between, figure, integer, MAX_PLAUSIBLE_TOKENS, percent, type OptionSpec } from './option-spec.js';

export const STRATEGY_VALUES = ['threshold', 'sliding-window'] as const;

// The constants behind the computed defaults, so the words the docs show and the code that computes them agree.
/** Windows above this get a fixed buffer instead of a share. */
export const LARGE_WINDOW = 200_000;
/** The buffer of a window above `LARGE_WINDOW` when `bufferTokens` is unset. */
export const LARGE_WINDOW_BUFFER = 20_000;
/**
 * The largest share of the window a `bufferTokens` may keep free. A larger one was written for a larger
 * window (the model's real or learned window is smaller than assumed): the window's default buffer is used
 * instead, with one warning. A smaller threshold on purpose is `contextWindow`'s job.
 */
export const MAX_BUFFER_SHARE = 0.5;
/** The hard limit's share of the window when `hardLimitRatio` is unset. */
export const DEFAULT_HARD_LIMIT_RATIO = 0.95;

export const BUDGET_OPTIONS = {
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
    range: integer(1_024, MAX_PLAUSIBLE_TOKENS),
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
    rangeNote: `≤ ${percent(MAX_BUFFER_SHARE)} of window`,
    defaultText: `${figure(LARGE_WINDOW_BUFFER)} (window > ${LARGE_WINDOW / 1_000}k), else \`bufferRatio\` × window`,
    short:
      'Buffer below the window; threshold = window − buffer, where a compaction starts (a masking that alone makes room may wait past it, up to the hard limit).',
    long: `Kept free below the window: threshold = window − buffer, where a compaction starts. A masking of old tool results that alone makes room may wait past it for the call that needs it, while the session's pace keeps the next call under the hard limit (docs/design.md, "A masking for room waits for the call that needs it"); to keep every request under the threshold, set \`hardLimitRatio\` to 1 − \`bufferRatio\` (the hard limit then caps the threshold and nothing waits). At most ${percent(MAX_BUFFER_SHARE)} of \`contextWindow\` (a config error); above ${percent(MAX_BUFFER_SHARE)} of a window from the registry, \`modelWindows\` or a provider's rejection it was written for a larger window: the default buffer for that window is used, with one warning per agent and model.`,
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
      "Room kept for the answer (the request's `maxOutputTokens` when larger, at most half the window); the effective buffer is the larger of the two.",
    long: "Room for the answer; the request's `maxOutputTokens` is used when larger. At most half the window counts (a larger reserve leaves room for nothing else). The effective buffer is the larger of the two.",
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
    long: "Correction applied to the heuristic before any real count. Not given, on a Gemini agent's first call of a session (nothing after the guard editing the request) the user's current message is held to the hard limit by the estimate itself, not cut because this guess puts it over; a rejection is retried inside the call with the message cut (see [design.md](design.md#calibrating)).",
  },
  hardLimitRatio: {
    scope: 'policy',
    unit: 'fraction',
    range: between(0.5, 1),
    defaultText: `${DEFAULT_HARD_LIMIT_RATIO}, raised to the threshold when that is higher`,
    short: 'A request is never knowingly sent above this fraction of the window.',
    long: `A request is never knowingly sent above this share of the window: set, it also caps the threshold (compaction starts at the hard limit at the latest; with \`contextWindow\` and a \`bufferTokens\` whose threshold is above it, a config error; otherwise one warning per agent and model). Unset, the hard limit is ${percent(DEFAULT_HARD_LIMIT_RATIO)} of the window, or the threshold when that is higher (windows over ${Math.round(LARGE_WINDOW_BUFFER / (1 - DEFAULT_HARD_LIMIT_RATIO) / 1_000)}k with the ${figure(LARGE_WINDOW_BUFFER)}-token buffer). Changed in this release: writing the default ${DEFAULT_HARD_LIMIT_RATIO} explicitly is a promise like any other value and caps the threshold there, so on windows over ${Math.round(LARGE_WINDOW_BUFFER / (1 - DEFAULT_HARD_LIMIT_RATIO) / 1_000)}k it lowers the threshold (\`contextWindow: 1000000, bufferTokens: ${LARGE_WINDOW_BUFFER}, hardLimitRatio: ${DEFAULT_HARD_LIMIT_RATIO}\`, accepted before, is now a config error); leave it unset to keep the threshold above ${percent(DEFAULT_HARD_LIMIT_RATIO)} there.`,
  },
  compactTargetRatio: {
    scope: 'policy',
    unit: 'fraction',
    range: between(0.1, 0.95),
    default: 0.5,
    short: 'After a compaction the request uses at most this fraction of the room below the threshold.',
    long: 'After a compaction the request uses at most this share of the room below the threshold.',
  },
} as const satisfies Record<string, OptionSpec>;
