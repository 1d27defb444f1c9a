/**
 * The count a provider reports for the guard's own summary request calibrates an agent that has no count of its
 * own, when the summarizer is the agent's model. Some modes never report usage on the agent's calls: ADK's streamed
 * Interactions API path yields none, so the guard kept its default correction and its uncalibrated threshold (half
 * the window) for the whole session and summarized on every one of 80 turns, while its own summary calls, not
 * streamed, came back counted (the forty-third outside trial). A summary request is the agent's request continued
 * by an instruction, or the guard's prompt of the same conversation, measured by the same estimator: its ratio is
 * the agent's. An agent's own count always comes first.
 */
import { clampCorrection, MAX_CORRECTION } from '../estimate/calibration.js';
import { plausibleTokenCount } from '../state/codec.js';

/** A summary's count and the heuristic tokens of the one request it counts (a `SummaryOutcome` that succeeded). */
interface CountedSummary {
  readonly promptTokens?: number | undefined;
  readonly requestTokens?: number | undefined;
}

/**
 * A count under this share of the request's estimate is not a count of it: no tokenizer counts a tenth of what the
 * estimate counts (a cut prompt, a count of one message, a unit mistaken). Above MAX_CORRECTION likewise.
 */
const MIN_BELIEVED_RATIO = 0.1;

/** The ratio of a summary's count to its request's estimate, when both are counts and it is believable. */
function believedRatio(counted: CountedSummary): number | undefined {
  const prompt = plausibleTokenCount(counted.promptTokens, 1);
  const estimate = counted.requestTokens;
  if (prompt === undefined || estimate === undefined || !(estimate > 0)) return undefined;
  const ratio = prompt / estimate;
  return ratio >= MIN_BELIEVED_RATIO && ratio <= MAX_CORRECTION ? ratio : undefined;
}

/**
 * The correction `counted` teaches, when it is one request's count of the agent's own model and a believable one: a
 * count that is no integer, or far from the request's estimate either way, teaches nothing (the forty-seventh outside
 * trial: a summarizer's NaN, Infinity or 99,999,999 was clamped to the largest correction, and the agent compacted on
 * 35 of 40 turns).
 */
export function summaryCorrection(counted: CountedSummary | undefined, agentsModel: boolean): number | undefined {
  if (!agentsModel || counted === undefined) return undefined;
  const ratio = believedRatio(counted);
  return ratio === undefined ? undefined : clampCorrection(ratio);
}

/**
 * Whether a summary request's count would teach `usage` anything: the agent has no count of its own, or only a
 * correction an earlier summary taught. Measuring the request tokenizes the history it continues, so it is done
 * only then.
 */
export function summaryCountTeaches(usage: {
  readonly realPromptTokens?: number | undefined;
  readonly learnedCorrection?: number | undefined;
  readonly correctionFromSummary?: boolean | undefined;
}): boolean {
  if (usage.realPromptTokens !== undefined) return false;
  return usage.learnedCorrection === undefined || usage.correctionFromSummary === true;
}
