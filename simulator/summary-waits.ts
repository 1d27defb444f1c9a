/**
 * How long the user waited for summaries, in the simulator's virtual time: every model call
 * takes `modelMs`, every summarizer call `summarizerMs`. A summarizer call that starts in the
 * call that compacts (the guard summarizing in the call, ADK's compactor before it) makes that
 * call wait for all of it; one that starts in a call that does not compact is a summary prepared
 * in the background, and the call that later applies it waits only for what is left of it.
 * Virtual time keeps the run fast and its figures the same on any machine; the bench
 * (`npm run bench -- background-compaction`) measures the same on a real clock.
 */

/** What a call says about summaries. */
export interface SummaryCallFacts {
  readonly turn: number;
  /** A compaction happened for this call. */
  readonly compacted: boolean;
}

export interface SummaryLatency {
  readonly modelMs: number;
  readonly summarizerMs: number;
}

/** The latencies of issue 18's measurement: a model that takes 150 ms per call, a summarizer 400 ms. */
export const SUMMARY_LATENCY: SummaryLatency = { modelMs: 150, summarizerMs: 400 };

export interface SummaryWaits {
  /** Virtual milliseconds each call waited for a summary, by call. */
  readonly waitMs: readonly number[];
  /** Turns in which at least one call waited. */
  readonly turnsWaited: number;
  /** Wall time the waits added to the run. */
  readonly addedMs: number;
}

/** `startedAt`: for each summarizer call, the index of the model call during whose preparation it started. */
export function summaryWaits(
  calls: readonly SummaryCallFacts[],
  startedAt: readonly number[],
  latency: SummaryLatency = SUMMARY_LATENCY,
): SummaryWaits {
  const started = new Map<number, number>();
  for (const index of startedAt) started.set(index, (started.get(index) ?? 0) + 1);
  let now = 0;
  let readyAt: number | undefined;
  const waitMs: number[] = [];
  const turns = new Set<number>();
  calls.forEach((call, index) => {
    const starts = started.get(index) ?? 0;
    let wait = 0;
    if (call.compacted && starts > 0) wait = latency.summarizerMs;
    else if (call.compacted && readyAt !== undefined) wait = Math.max(0, readyAt - now);
    if (call.compacted) readyAt = undefined;
    // Summaries started here beyond the one this call waited for are prepared for later.
    if (starts > (call.compacted ? 1 : 0)) readyAt = now + wait + latency.summarizerMs;
    now += wait + latency.modelMs;
    waitMs.push(wait);
    if (wait > 0) turns.add(call.turn);
  });
  return { waitMs, turnsWaited: turns.size, addedMs: waitMs.reduce((total, wait) => total + wait, 0) };
}
