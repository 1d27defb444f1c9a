/**
 * The durable facts (memory/durable-facts.ts) that stand however many routine lines follow them. Pure.
 */
import { isCorrection, telling } from './fact-sentences.js';

/** Corrections that are nothing else kept at the user's rank: the newest few; older ones rank with repeats. */
export const CORRECTIONS_AT_RANK = 6;
/** The user's newest corrections, then their oldest statements, keep this share of the list's count and characters. */
const STANDING_SHARE = 0.25;

/** What this reads of a fact. */
interface StatedFact {
  readonly text: string;
  /** Compaction number that first recorded it. */
  readonly addedAt: number;
}

interface StandingLimits<T> {
  readonly maxFacts: number;
  readonly maxChars: number;
  /** Characters one fact's line takes against `maxChars`. */
  readonly charsOf: (fact: T) => number;
}

/**
 * Of the user's own statements (`own`, in the order they were stated), those that stand however many routine lines
 * follow, up to a share of the list: the newest corrections, then the oldest statements but those a correction may
 * correct (one sharing a telling word with it). What a session opens with (who the user is, the order, the rules) is
 * said once, while routine lines come every turn: by recency alone, 59 later "Please look at ticket TCK-4089 next."
 * pushed out the opening's order id and "Never use the staging DB db-staging-3" (the fifty-seventh outside trial).
 * The corrections come first so that an old statement never outlives what corrected it (review 34).
 */
export function standingFacts<T extends StatedFact>(
  own: readonly T[],
  byRecency: (a: T, b: T) => number,
  limits: StandingLimits<T>,
): Set<T> {
  const corrections = own.filter((fact) => isCorrection(fact.text)).sort(byRecency);
  const corrected = new Set(corrections.flatMap((fact) => telling(fact.text)));
  const oldest = own
    .map((fact, index) => ({ fact, index }))
    .filter(({ fact }) => !isCorrection(fact.text) && !telling(fact.text).some((word) => corrected.has(word)))
    .sort((a, b) => a.fact.addedAt - b.fact.addedAt || a.index - b.index)
    .map(({ fact }) => fact);
  const standing = new Set<T>();
  let chars = 0;
  for (const fact of [...corrections.slice(0, CORRECTIONS_AT_RANK), ...oldest]) {
    chars += limits.charsOf(fact);
    if (standing.size >= Math.floor(limits.maxFacts * STANDING_SHARE) || chars > limits.maxChars * STANDING_SHARE)
      break;
    standing.add(fact);
  }
  return standing;
}
