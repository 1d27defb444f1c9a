/**
 * The stored summary as a call's input: the one to apply (a concurrent call's newer one when it fits this history),
 * whether a queued call made it, and whether the request is ADK's view of a late long-running answer, where a
 * stored summary that does not fit is kept, not cleared (runtime/late-response-view.ts).
 */
import type { Context } from '@google/adk';
import type { GuardRequestInput } from '../../pipeline/contract.js';
import { locateSummary } from '../../state/watermark.js';
import type { SummaryRecord } from '../../summary/stored-summary.js';
import { isLateResponseView } from '../runtime/late-response-view.js';

/** A concurrent call on this session may have just summarized this history: reuse it if it fits. */
function summaryToApply(
  stored: SummaryRecord | undefined,
  shared: SummaryRecord | undefined,
  fingerprintAt: (index: number) => string | undefined,
  length: number,
): SummaryRecord | undefined {
  if (
    shared &&
    shared.createdAt > (stored?.createdAt ?? -1) &&
    locateSummary(fingerprintAt, length, shared).kind !== 'missing'
  )
    return shared;
  return stored;
}

/** The summary fields of the input: the summary to apply, whether a queued call made it, and ADK's view of the history. */
export function summaryInput(
  context: Context,
  stored: SummaryRecord | undefined,
  shared: SummaryRecord | undefined,
  fingerprintAt: (index: number) => string | undefined,
  length: number,
): Pick<GuardRequestInput, 'summary' | 'summaryShared' | 'lateResponseView'> {
  const summary = summaryToApply(stored, shared, fingerprintAt, length);
  return {
    summary,
    summaryShared: summary !== undefined && summary === shared,
    lateResponseView: isLateResponseView(context.invocationContext.session.events, {
      agentName: context.agentName,
      branch: context.invocationContext.branch,
      isolationScope: (context.invocationContext as { isolationScope?: unknown }).isolationScope,
    }),
  };
}
