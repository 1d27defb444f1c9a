/**
 * Step 10 of the decision: the usage record after this call. An attempt for
 * room that still does not reach its target is remembered as futile; one that
 * does clears the record. A compaction or masking makes the last real count
 * stale: the pair is cleared and what it taught is kept as the prior.
 */
import type { CompactionReason } from '../budget/compaction-reason.js';
import type { FutileCompaction } from '../usage/marks.js';
import type { UsageRecord } from '../usage/stored-usage.js';
import type { CompactionConditions } from '../trigger/futile-compaction.js';

export interface FutileInput {
  readonly previous: FutileCompaction | undefined;
  readonly reason: CompactionReason;
  readonly heldBack: boolean;
  readonly conditions: CompactionConditions;
  /** Calibrated size the attempt had to get under: the threshold, or the safety line for the safety ratio. */
  readonly threshold: number;
  readonly safetyLine: number;
  /** Calibrated size the reduction reached, before any shrinking: one that reached its target only by shrinking did not help. */
  readonly reducedCalibrated: number;
  /** Heuristic tokens of the request before shrinking, and of its fixed part. */
  readonly viewEstimate: number;
  readonly fixedTokens: number;
}

export function futileAfter(input: FutileInput): FutileCompaction | undefined {
  const { reason } = input;
  if (input.heldBack || reason === 'schedule') return input.previous;
  const target = reason === 'safety-ratio' ? input.safetyLine - 1 : input.threshold;
  return input.reducedCalibrated > target
    ? { ...input.conditions, contentTokens: input.viewEstimate - input.fixedTokens }
    : undefined;
}

/** The usage after a call that sends the view as it is. */
export function idleUsage(usage: UsageRecord, estimate: number, framing: number, calibrated: number): UsageRecord {
  return {
    ...usage,
    modelCalls: usage.modelCalls + 1,
    sentEstimate: estimate,
    sentFraming: framing,
    lastCalibrated: calibrated,
    forceCompaction: false,
    // Nothing was cut: a message cut later is said again, whatever its size.
    messageCutFrom: undefined,
  };
}

export interface UsageInput {
  readonly usage: UsageRecord;
  readonly compacted: boolean;
  readonly masked: boolean;
  readonly discarded: boolean;
  readonly isCalibrated: boolean;
  readonly factor: number;
  readonly sentEstimate: number;
  /** Of `sentEstimate`, the estimator's own framing. */
  readonly sentFraming: number;
  readonly sentCalibrated: number;
  readonly overLimit: boolean;
  readonly futileCompaction: FutileCompaction | undefined;
  readonly overLimitCause: string | undefined;
  /** The estimate of the user's message this call cut, when it cut it (usage/marks.ts). */
  readonly messageCutFrom?: number | undefined;
  /** When this call's scheduled summary was not kept, the completed turns up to which the schedule is held (usage/marks.ts). */
  readonly scheduleHeldAt?: number | undefined;
  /** This call's compaction took a prepared summary that fell short and summarized again (usage/marks.ts). */
  readonly preparedFellShort?: boolean | undefined;
  /** The correction the count of this call's summary request teaches (usage/summary-correction.ts). */
  readonly summaryCorrection?: number | undefined;
}

/**
 * A calibrated factor becomes the prior once the real count it came from is cleared; an agent with no count of its own
 * takes the one its summary request's count taught, and each later summary's after it (review 36: the first, often of
 * the guard's own prompt, had held for the whole session).
 */
function learnedAfter(input: UsageInput): Pick<UsageRecord, 'learnedCorrection' | 'correctionFromSummary'> {
  const { usage, summaryCorrection } = input;
  const ownCount = usage.realPromptTokens !== undefined && usage.lastEstimate !== undefined;
  const summaryTaught = usage.learnedCorrection === undefined || usage.correctionFromSummary === true;
  if (summaryCorrection !== undefined && !ownCount && summaryTaught)
    return { learnedCorrection: summaryCorrection, correctionFromSummary: true };
  return {
    learnedCorrection: input.isCalibrated ? input.factor : usage.learnedCorrection,
    correctionFromSummary: ownCount ? undefined : usage.correctionFromSummary,
  };
}

/** The pair a reduction clears, kept to tell a provider's stale count after it (usage/count-plateau.ts). */
function pairBeforeReduction(
  usage: UsageRecord,
): Pick<UsageRecord, 'countBeforeReduction' | 'estimateBeforeReduction'> {
  const { realPromptTokens, lastEstimate } = usage;
  return realPromptTokens !== undefined && lastEstimate !== undefined
    ? { countBeforeReduction: realPromptTokens, estimateBeforeReduction: lastEstimate }
    : { countBeforeReduction: usage.countBeforeReduction, estimateBeforeReduction: usage.estimateBeforeReduction };
}

export function nextUsage(input: UsageInput): UsageRecord {
  const { usage, compacted, masked } = input;
  return {
    ...usage,
    modelCalls: usage.modelCalls + 1,
    // The pre-compaction real count would pin every later estimate above the threshold (see calibration.ts).
    ...(compacted || masked
      ? {
          realPromptTokens: undefined,
          lastEstimate: undefined,
          lastFraming: undefined,
          ...pairBeforeReduction(usage),
          ...learnedAfter(input),
        }
      : {}),
    maskings: usage.maskings + (masked ? 1 : 0),
    sentEstimate: input.sentEstimate,
    sentFraming: input.sentFraming,
    lastCalibrated: input.sentCalibrated,
    compactions: usage.compactions + (compacted ? 1 : 0),
    discardedCompactions: usage.discardedCompactions + (input.discarded ? 1 : 0),
    overLimitCalls: usage.overLimitCalls + (input.overLimit ? 1 : 0),
    forceCompaction: false,
    futileCompaction: input.futileCompaction,
    overLimitCause: input.overLimitCause,
    messageCutFrom: input.messageCutFrom,
    // A summary kept moves the watermark, from which the schedule counts turns anew.
    scheduleHeldAt: compacted ? undefined : (input.scheduleHeldAt ?? usage.scheduleHeldAt),
    preparedFellShort: usage.preparedFellShort === true || input.preparedFellShort === true || undefined,
  };
}
