/** The options of the summarizer: which model, its window, its time and its output. Part of the option table. */
import { MAX_TIMER_MS } from './timer-limit.js';
import { integer, between, MAX_PLAUSIBLE_TOKENS, other, type OptionSpec } from './option-spec.js';

export const SUMMARIZER_OPTIONS = {
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
    range: integer(1_024, MAX_PLAUSIBLE_TOKENS),
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
    long: "Upper bound of a summary; smaller windows get less (25% of the room below the threshold). A Gemini model that thinks (2.5 and later, or an agent's `thinkingConfig`) counts its thoughts in its output cap: the summary request allows them on top (the agent's `thinkingBudget`, else a default allowance), and the summary is still held to this size.",
  },
  summarizerInputRatio: {
    scope: 'policy',
    unit: 'fraction',
    range: between(0.1, 0.95),
    default: 0.8,
    short: "Share of the summarizer's window its input may use; what does not fit is summarized first.",
    long: "Share of the summarizer's window its input may use. What a summary covers that does not fit at once is read in spans, oldest first, each call carrying the summary the one before made (at most 4 calls a summary, sharing `summarizerTimeoutMs`; beyond, the oldest are left out and the prompt says how many).",
  },
} as const satisfies Record<string, OptionSpec>;
