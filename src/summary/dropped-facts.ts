/**
 * The durable facts a compaction dropped, as its records carry them: named up to a bound, those the previous summary
 * carried first, and counted (a first compaction on a large window covers hundreds of turns: the thirty-sixth outside
 * trial's record listed 253, 28 KB in state and on the event). Read back the same way from any record that carries
 * them, whoever wrote it (an older version named them all; an edited one may count 9e15).
 */
import { decodeCount } from '../state/field-reader.js';

/** Dropped durable facts a compaction record names; the others are counted. */
export const MAX_LISTED_DROPPED_FACTS = 20;
/** More dropped facts than this in one compaction is not plausible. */
const MAX_DROPPED_FACT_COUNT = 1_000_000;

export interface DroppedFacts {
  readonly droppedFacts: readonly string[];
  readonly droppedFactCount: number;
}

/** `facts`, as a summary just made names and counts them. */
export function droppedFactsOf(facts: readonly string[]): DroppedFacts {
  return { droppedFacts: facts.slice(0, MAX_LISTED_DROPPED_FACTS), droppedFactCount: facts.length };
}

/** The dropped facts a stored record carries (`names`, `count`), bounded as a summary bounds them. */
export function decodeDroppedFacts(names: unknown, count: unknown): DroppedFacts {
  const listed = Array.isArray(names) ? names.filter((fact): fact is string => typeof fact === 'string') : [];
  const counted = Math.min(Math.floor(decodeCount(count) ?? 0), MAX_DROPPED_FACT_COUNT);
  return {
    droppedFacts: listed.slice(0, MAX_LISTED_DROPPED_FACTS),
    droppedFactCount: Math.max(counted, listed.length),
  };
}
