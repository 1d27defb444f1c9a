/**
 * Step 10's input: the usage record after this call, from what was sent, the futile-attempt mark, the schedule's
 * hold and what the call's summary teaches (next-usage.ts makes the record).
 */
import type { CompactionReason } from '../budget/compaction-reason.js';
import type { UsageRecord } from '../usage/stored-usage.js';
import { summaryCorrection } from '../usage/summary-correction.js';
import { scheduleHeldUntil } from '../trigger/sliding-window.js';
import type { Compacted } from './compact.js';
import type { GuardRequestInput } from './contract.js';
import { futileAfter, nextUsage, type UsageInput } from './next-usage.js';
import type { Observed } from './observe.js';

/** What the call's summary leaves in the usage record: a prepared one that fell short, the correction its count taught. */
export function summaryFigures(
  input: GuardRequestInput,
  made: Compacted['made'],
  kept: boolean,
): Pick<SentFigures, 'preparedFellShort' | 'summaryCorrection'> {
  const outcome = made?.summary.outcome;
  const counted = kept && outcome?.ok ? outcome : undefined;
  return {
    preparedFellShort: made?.prepared !== undefined && made.prepared.waitedMs === undefined,
    summaryCorrection: summaryCorrection(counted, input.summarizerReadsRequest === true),
  };
}

/** What was sent, as the usage record counts it. */
type SentFigures = Omit<UsageInput, 'usage' | 'isCalibrated' | 'factor' | 'futileCompaction' | 'scheduleHeldAt'>;

/** `viewEstimate` and `reducedCalibrated`: heuristic and calibrated tokens of the request before shrinking. */
export function usageAfter(
  input: GuardRequestInput,
  observed: Observed,
  reason: CompactionReason | undefined,
  reduced: { readonly viewEstimate: number; readonly reducedCalibrated: number },
  sent: SentFigures,
): UsageRecord {
  const { usage } = input;
  const { decision, measure, fixedTokens } = observed;
  // Nothing was due (a masking for cost): a futile attempt is still remembered as it was.
  const futileCompaction =
    reason === undefined
      ? usage.futileCompaction
      : futileAfter({
          previous: usage.futileCompaction,
          reason,
          heldBack: decision.heldBack,
          conditions: decision.conditions,
          threshold: measure.budget.threshold,
          safetyLine: decision.safetyLine,
          reducedCalibrated: reduced.reducedCalibrated,
          viewEstimate: reduced.viewEstimate,
          fixedTokens,
        });
  const scheduleHeldAt =
    reason === 'schedule' && sent.discarded ? scheduleHeldUntil(decision.sliding, input.policy.overlapSize) : undefined;
  return nextUsage({
    ...sent,
    ...withDeclaration(input, sent, measure.factor),
    usage,
    isCalibrated: measure.isCalibrated,
    factor: measure.factor,
    futileCompaction,
    scheduleHeldAt,
  });
}

/**
 * What was sent, with the recall tool's declaration when this call's masking or summary brought it in (the shell
 * adds it after the decision, adk/hooks/before-model-guard.ts): the estimate the provider's count is paired with is
 * the request's own (CI: it was left out, 894 characters under the request on the call that first masked).
 */
function withDeclaration(
  input: GuardRequestInput,
  sent: SentFigures,
  factor: number,
): Pick<SentFigures, 'sentEstimate' | 'sentCalibrated'> {
  const declaration = sent.compacted || sent.masked ? (input.recallDeclarationTokens ?? 0) : 0;
  if (declaration === 0 || input.recallToolName === undefined) return sent;
  return {
    sentEstimate: sent.sentEstimate + declaration,
    sentCalibrated: sent.sentCalibrated + Math.ceil(declaration * factor),
  };
}
