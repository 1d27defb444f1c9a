/**
 * The last step of the decision: the whole change to the agent's state, so the shell only writes
 * it. The summary to store (this call's, or one a queued call made, or a clear), the mask, the
 * usage record with its turn accounting and its window's source, and the call's own counts.
 */
import { callCountsBetween } from '../records/call-record.js';
import type { SummaryRecord } from '../summary/stored-summary.js';
import { answersRead } from './unseen-answer.js';
import { trackTurn } from '../usage/turns.js';
import { withBudget } from '../usage/window.js';
import type { Decision, GuardRequestInput, GuardRequestResult, StateChange } from './contract.js';

/** `arrived`: the calibrated size of the request as it came, before this call's reductions (usage/turns.ts). */
export function withStateChange(input: GuardRequestInput, decision: Decision, arrived?: number): GuardRequestResult {
  // The new summary as stored, the same object the shell offers the calls queued behind this one (apply-result.ts).
  const made = decision.newSummary
    ? { ...decision, newSummary: withAnswersRead(input, decision.newSummary) }
    : decision;
  const { usage, mask, ...result } = made;
  return { ...result, state: stateChange(input, made, arrived), counts: callCountsBetween(input.usage, usage) };
}

function stateChange(input: GuardRequestInput, decision: Decision, arrived: number | undefined): StateChange {
  // A reduction for room, not for cost: masking stale results is what the turns' growth is measured after.
  const forRoom = decision.compaction !== undefined || decision.masking?.cause === 'room';
  // What the call before it sent, for the step a tool loop's call adds (usage/turns.ts).
  const previous = input.usage.lastCalibrated;
  const turns = trackTurn(
    decision.usage,
    input.invocationId ?? '',
    decision.calibrated,
    forRoom ? arrived : undefined,
    previous,
  );
  // Records made on ADK's view of a late answer would cover part of the history only: none is written there but
  // the stored ones cut at the answer's call (locate-stored.ts), which the next request, the whole history again, needs.
  const late = input.lateResponseView === true;
  // The recall tool is on this request (the shell declared it, or declares it for this call's rewrite): it stays.
  const rewrote = decision.compaction !== undefined || decision.masking !== undefined;
  const recallSent = input.recallToolName !== undefined && (input.recallDeclarationTokens === undefined || rewrote);
  const recallDeclared = decision.usage.recallDeclared === true || recallSent || undefined;
  return {
    summary: late ? decision.cutAtCall?.summary : summaryToStore(input, decision),
    mask: late ? decision.cutAtCall?.mask : decision.mask,
    usage: { ...withBudget(turns, decision.budget, input.windowOrigin), recallDeclared },
    compactionRequestServed: input.manual === true,
  };
}

/** A new summary; else the one a queued call made, written again with this step; else a clear of one that no longer applies. */
function summaryToStore(input: GuardRequestInput, decision: Decision): SummaryRecord | null | undefined {
  if (decision.newSummary) return decision.newSummary;
  // A summary cut at the call of an answer it never read (unseen-answer.ts), stored so.
  if (decision.cutAtCall?.summary) return decision.cutAtCall.summary;
  if (input.summaryShared && input.summary) return input.summary;
  return decision.summaryDiscarded === undefined ? undefined : null;
}

/** A summary made on this call's contents has read the application's answers inside what it covers. */
function withAnswersRead(input: GuardRequestInput, summary: SummaryRecord): SummaryRecord {
  const answers = input.applicationAnswers ?? [];
  const seen = summary.answers ?? input.summary?.answers ?? [];
  return { ...summary, answers: answersRead(input.contents, summary.covered, answers, seen) };
}
