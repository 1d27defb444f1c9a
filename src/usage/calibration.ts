/**
 * The calibration an agent's usage record keeps: the estimates of the last request sent and the
 * provider's real count of it, and the correction learned from them (see estimate/calibration.ts).
 */
import { MAX_CORRECTION, MIN_CORRECTION } from '../estimate/calibration.js';
import { MAX_PLAUSIBLE_TOKENS } from '../state/codec.js';
import type { FieldReader } from '../state/field-reader.js';

export interface UsageCalibration {
  /** Real `promptTokenCount` of the last request sent, if the provider reported it. */
  readonly realPromptTokens?: number | undefined;
  /** Heuristic estimate of the last request sent. */
  readonly lastEstimate?: number | undefined;
  /** Of `lastEstimate`, the estimator's own framing (see estimate/calibration.ts). */
  readonly lastFraming?: number | undefined;
  /** Heuristic estimate of the last request sent (paired with its real count when that arrives). */
  readonly sentEstimate?: number | undefined;
  /** Of `sentEstimate`, the estimator's own framing. */
  readonly sentFraming?: number | undefined;
  /** Calibrated estimate of the last request sent. */
  readonly lastCalibrated?: number | undefined;
  /** Correction learned from a real count; survives compactions. */
  readonly learnedCorrection?: number | undefined;
  /**
   * The model (normalised name) whose count taught `learnedCorrection`: another agent of the session starts from it
   * on the same model (usage/sibling-correction.ts). Absent in records written before 2026-12-05.
   */
  readonly correctionModel?: string | undefined;
  /** Output tokens of the last response. */
  readonly outputTokens?: number | undefined;
  /**
   * Heuristic tokens the agent's own before-model callbacks added to the last request after the
   * guard measured it (usage/agent-additions.ts): counted in the next request's fixed part.
   */
  readonly agentAddedTokens?: number | undefined;
  /**
   * Counts since the last pair that did not grow past `realPromptTokens` while the request grew a tenth past
   * `lastEstimate` (usage/count-plateau.ts): a provider cutting the prompt. Absent in records written before 2026-12-07.
   */
  readonly samePromptReports?: number | undefined;
  /**
   * `learnedCorrection` was taught by a summary request's count (usage/summary-correction.ts): a later summary's
   * replaces it, the agent's own count clears it. Absent in records written before 2026-12-07.
   */
  readonly correctionFromSummary?: boolean | undefined;
  /**
   * The last pair before a compaction or masking cleared it, until a count is paired again: the same count again, for
   * a smaller request, is the provider's stale one (usage/count-plateau.ts). Absent in records written before
   * 2026-12-07.
   */
  readonly countBeforeReduction?: number | undefined;
  readonly estimateBeforeReduction?: number | undefined;
}

export function decodeCalibration(read: FieldReader): UsageCalibration {
  return {
    realPromptTokens: read.tokens('realPromptTokens', MAX_PLAUSIBLE_TOKENS),
    lastEstimate: read.tokens('lastEstimate', MAX_PLAUSIBLE_TOKENS),
    lastFraming: read.tokens('lastFraming', MAX_PLAUSIBLE_TOKENS),
    sentEstimate: read.tokens('sentEstimate', MAX_PLAUSIBLE_TOKENS),
    sentFraming: read.tokens('sentFraming', MAX_PLAUSIBLE_TOKENS),
    lastCalibrated: read.tokens('lastCalibrated', MAX_PLAUSIBLE_TOKENS),
    // The guard only ever stores a clamped correction: one outside the clamp was written by something else.
    learnedCorrection: read.number('learnedCorrection', { min: MIN_CORRECTION, max: MAX_CORRECTION }),
    correctionModel: read.string('correctionModel'),
    outputTokens: read.number('outputTokens', { max: MAX_PLAUSIBLE_TOKENS }),
    agentAddedTokens: read.tokens('agentAddedTokens', MAX_PLAUSIBLE_TOKENS),
    samePromptReports: read.tokens('samePromptReports', MAX_PLAUSIBLE_TOKENS),
    correctionFromSummary: read.boolean('correctionFromSummary') || undefined,
    countBeforeReduction: read.tokens('countBeforeReduction', MAX_PLAUSIBLE_TOKENS),
    estimateBeforeReduction: read.tokens('estimateBeforeReduction', MAX_PLAUSIBLE_TOKENS),
  };
}

/** The provider's count of the last request sent, when it reported one (paired with that request's estimate). */
export function countedLast(usage: UsageCalibration): number | undefined {
  const { realPromptTokens, lastEstimate, sentEstimate } = usage;
  return realPromptTokens !== undefined && lastEstimate !== undefined && lastEstimate === sentEstimate
    ? realPromptTokens
    : undefined;
}
