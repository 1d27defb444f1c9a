/**
 * The options that say what of the history is cut, pinned or masked: tool-output
 * truncation, pins, observation masking (for room and for cost) and the per-tool
 * declarations masking reads. Part of the option table.
 */
import { BOOLEAN, integer, other, percent, type OptionSpec } from './option-spec.js';
import { TRUNCATION_FIELD_TABLE as TRUNCATION } from './truncation-fields.js';

/** Share of the window the pins get when `maxPinnedTokens` is not set. */
export const DEFAULT_PIN_SHARE = 0.1;
/** Share of the window the pins never pass, whatever `maxPinnedTokens` says. */
export const MAX_PIN_SHARE = 0.5;

export const CONTENT_OPTIONS = {
  toolOutputTruncation: {
    scope: 'policy',
    range: other('`false` or limits'),
    defaultText: `on, ${TRUNCATION.maxBytes.default / 1_024} KiB / ${TRUNCATION.maxLines.default} lines`,
    short: 'Head+tail cut of oversized tool results; `false` turns it off; per-tool limits under `tools`.',
    long: "Head+tail cut of oversized tool results (its fields below, and [truncation.md](truncation.md)); `false` turns it off. An agent's value replaces the global one. A misspelt field is refused, naming the one it likely meant; a `tools` key that names no tool of the agents it applies to is logged once, with the name it likely meant, when the app first runs. With an `artifactService` on the Runner, the whole result is also stored as an artifact that the recall tool can read ([truncation.md](truncation.md#offloading-the-whole-result-to-an-artifact)).",
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
      "Masking for cost: old tool results (of completed turns, and, once a tool loop has made ten calls, its steps but the last `maskKeepRecent`) become placeholders in batches, with no model call, even with the window far from full, once a batch saves at least this many tokens and pays for the provider's cached prefix it breaks; `0` turns it off, and so does `maskKeepRecent: 0`.",
    long: "Masking for cost: the tool results of completed turns, and inside a tool loop of ten calls or more the steps the model has moved past (all but the last `maskKeepRecent` results, never the latest call; a shorter loop's results are its answer's working set), become placeholders in batches, with no model call, even with the window far from full, once a batch saves at least this many (estimated) tokens and pays for the provider's cached prefix it breaks over the calls expected before the threshold (weighed with the model's cached price; inside a loop, a third as many calls again as it has made); the user's message is never masked; `0` turns it off, and so does `maskKeepRecent: 0` (see [design.md](design.md#three-remedies-cheapest-first-and-the-providers-cache)).",
    see: 'docs/design.md#three-remedies-cheapest-first-and-the-providers-cache',
  },
  tools: {
    scope: 'policy',
    range: other('`{ [toolName]: { readOnly?, reuseResult? } }`'),
    defaultText: '`{}`',
    short:
      "Per-tool declarations by exact tool name, e.g. `{ search_orders: { readOnly: true } }` for a tool whose calls change nothing: only its masked results' placeholders may suggest calling it again.",
    long: "Per-tool declarations, by exact tool name (ADK's tools carry none; its fields below): `readOnly: true` says a call has no side effect, so a masked result's placeholder may suggest calling the tool again; every other tool's placeholder says to read it back with the recall tool instead, which the guard declares itself wherever masking for cost is on; `reuseResult: true` with it answers a repeated call from the stored result while no other tool ran since (without it, `reuseResult` is ignored, and a warning says so when the guard is made). An agent's entry for a tool is merged over the global one; a field other than these is refused, naming the one it likely meant; a key that names no tool of the agents it applies to is logged once, with the name it likely meant, when the app first runs (tools a toolset lists at run time are not checked) (see [design.md](design.md#placeholders-never-invite-a-repeated-side-effect)).",
    see: 'docs/configuration.md#per-tool-declarations-tools',
  },
  budgetLine: {
    scope: 'policy',
    range: BOOLEAN,
    default: false,
    short:
      "The budget the model sees: every request ends with one line (tokens used of the window, turns left at the session's pace, steps left inside a tool loop, whether a compaction is near, how to read back masked output), never stored; the `context_status` tool gives the same figures.",
    long: "The budget the model sees: every request of the agent ends with one short user line, added on every call and never stored in the session: the calibrated tokens of the request and the window, the compaction threshold, turns left at the session's pace (and, from a tool loop's second call, its steps left), whether a compaction is near and, once something was masked or offloaded, how to read it back with the recall tool by `pattern` or `lines`. It is the last content, so two calls of a turn share every byte before it (the provider's cached prefix); it is counted in the estimate (a reserve for its longest form in the fixed part), absent from every summarizer input, and not added when the request continues an interaction (`previousInteractionId`, Interactions mode). A `context_status` tool, declared from the first call, answers the same figures as JSON. Costs 36 o200k tokens a call, 60 once the recall hint is in it, plus 49 for the tool's declaration (see [README](../README.md#the-budget-the-model-sees)).",
    see: 'README.md#the-budget-the-model-sees',
  },
} as const satisfies Record<string, OptionSpec>;
