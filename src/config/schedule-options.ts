/**
 * The options that say when a compaction runs besides the threshold: prepared
 * ahead in the background, and on the sliding window's schedule. Part of the
 * option table.
 */
import { MAX_TIMER_MS } from './timer-limit.js';
import { between, integer, type OptionSpec } from './option-spec.js';

export const SCHEDULE_OPTIONS = {
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
} as const satisfies Record<string, OptionSpec>;
