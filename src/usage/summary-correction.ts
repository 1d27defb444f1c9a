/**
 * The count a provider reports for the guard's own summary request calibrates an agent that has no count of its
 * own, when the summarizer is the agent's model. Some modes never report usage on the agent's calls: ADK's streamed
 * Interactions API path yields none, so the guard kept its default correction and its uncalibrated threshold (half
 * the window) for the whole session and summarized on every one of 80 turns, while its own summary calls, not
 * streamed, came back counted (the forty-third outside trial). A summary request is the agent's request continued
 * by an instruction, or the guard's prompt of the same conversation, measured by the same estimator: its ratio is
 * the agent's. An agent's own count always comes first.
 */
import { clampCorrection } from '../estimate/calibration.js';

/** A summary's count and the heuristic tokens of the one request it counts (a `SummaryOutcome` that succeeded). */
interface CountedSummary {
  readonly promptTokens?: number | undefined;
  readonly requestTokens?: number | undefined;
}

/** The correction `counted` teaches, when it is one request's count of the agent's own model. */
export function summaryCorrection(counted: CountedSummary | undefined, agentsModel: boolean): number | undefined {
  if (!agentsModel || counted === undefined) return undefined;
  const { promptTokens, requestTokens } = counted;
  if (promptTokens === undefined || requestTokens === undefined || promptTokens <= 0 || requestTokens <= 0)
    return undefined;
  return clampCorrection(promptTokens / requestTokens);
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
