/**
 * The decision ContextGuard takes on every model call, as a function over plain data: given the
 * request contents as ADK built them, their measures, the stored summary, mask and usage record,
 * it returns the contents to send and the whole change to the agent's state. The only effect is
 * the summarizer call it is handed. Never loops, never throws.
 *
 * The pipeline, each step in its own file:
 * 1-3. observe: where the stored summary and mask end (locate-stored), the view the model would
 *      get and its measure (masking/request-view, measure-request), whether to compact and why
 *      (trigger/decide-reason; held back when futile);
 * 4-8. compact, when due: how the room is shared (budget/compaction-plan), old tool results
 *      masked first (masking/mask-for-room), what a new summary covers (split/choose-split), the
 *      summary (make-summary: summarized now, or prepared in the background and taken);
 *      nothing-due otherwise: masking for cost (masking/mask-stale-output) and the background
 *      preparation (preparation/plan);
 * 9-10. finish: what is sent (fit-request), the compaction's outcome, the usage counters (next-usage);
 * 11. state-change: the summary, mask and usage record to store, turns and the window's source;
 * 12. budget-line-step: the line the model sees at the end of the request, when `budgetLine` is on.
 */
import type { CompactionReason } from '../budget/compaction-reason.js';
import { startsFreshChain } from '../interactions/fresh-chain.js';
import { checkPrepared, type PreparedCheck, type PreparedHandle } from '../preparation/prepared-summary.js';
import { withServerChain } from '../usage/server-chain.js';
import { compact } from './compact.js';
import type { Decision, GuardRequestInput, GuardRequestResult } from './contract.js';
import { finish } from './finish.js';
import { preparationFor, sendAsIs, staleMasking } from './nothing-due.js';
import { observe, type Observed } from './observe.js';
import { withStateChange } from './state-change.js';
import { withBudgetLine } from './budget-line-step.js';
import { unseenAnswerCall } from './unseen-answer.js';

export type { GuardRequestInput, GuardRequestResult, StateChange } from './contract.js';
export type { CompactionOutcome } from './compaction-outcome.js';

export async function guardRequest(input: GuardRequestInput): Promise<GuardRequestResult> {
  const observed = observe(input);
  const prepared = input.prepared && preparedCheck(input, input.prepared, observed);
  const decided = await decide(input, observed, observed.decision.reason, prepared);
  const decision = prepared?.valid === false ? { ...decided, preparedDropped: prepared.reason } : decided;
  const result = withStateChange(
    input,
    {
      ...decision,
      ...(observed.located.summaryHeld !== undefined && { summaryHeld: observed.located.summaryHeld }),
      cutAtCall: { summary: observed.located.cutAtCall, mask: observed.mask.cutAtCall },
      ...chainStep(input, decision),
    },
    arrivedGrowth(observed),
  );
  return withBudgetLine(input, result);
}

/**
 * The request's size as it arrived, for the turn's growth (usage/turns.ts), unless a stored summary or mask was
 * thrown away: the view then arrives whole, which is not what the turn added (the thirty-eighth outside trial: a
 * replica of an older release taking turns made the average turn 48k tokens on 16k, `turnsLeft` 0 for twenty turns).
 */
function arrivedGrowth(observed: Observed): number | undefined {
  const thrownAway = observed.located.summaryDiscarded !== undefined || observed.mask.maskUpdate === null;
  return thrownAway ? undefined : observed.measure.calibrated;
}

/**
 * Whether the prepared summary may be applied. Two requests leave it aside: one of a turn run beside another turn of
 * the session (the summary may have been prepared for the other turn's request), and ADK's view of a late answer,
 * where it is dropped when it covers the answer's call (it never saw the answer, which the next request has right
 * after the call).
 */
function preparedCheck(
  input: GuardRequestInput,
  handle: PreparedHandle,
  observed: Observed,
): PreparedCheck | undefined {
  const { length } = input.contents;
  // Another turn of the session runs at the same time: a summary prepared for one of them is left to the other.
  if (input.ownRequestAt !== undefined) return undefined;
  if (!input.lateResponseView)
    return unreadAnswerAside(
      input,
      handle,
      checkPrepared(handle, observed.located.summary, input.fingerprintAt, length),
    );
  return handle.watermark.covered > length - 2
    ? { valid: false, reason: 'a late function response arrived inside what it covers' }
    : undefined;
}

/**
 * A prepared summary that covers an answer the application sent after it was planned (ADK places the answer right
 * after its call, inside what it covers) never read it: applied, the answer would be in no request (review 16).
 */
function unreadAnswerAside(input: GuardRequestInput, handle: PreparedHandle, check: PreparedCheck): PreparedCheck {
  const answers = input.applicationAnswers ?? [];
  if (!check.valid || answers.length === 0) return check;
  // A claim of a version that kept no keys: every answer inside is taken as unread.
  const unseen = unseenAnswerCall(input.contents, check.covered, answers, handle.answers ?? []);
  return unseen === undefined
    ? check
    : { valid: false, reason: 'an answer the application sent arrived inside what it covers' };
}

/** Interactions mode: whether the request starts a fresh server-side chain, and the chain it leaves. */
function chainStep(input: GuardRequestInput, decision: Decision): Pick<Decision, 'usage'> & { freshChain: boolean } {
  const freshChain = startsFreshChain(input.interactions, {
    compacted: decision.compaction !== undefined,
    masked: decision.masking !== undefined,
    shrunk: decision.shrunk,
    rejectedBefore: input.usage.forceCompaction,
  });
  const usage = withServerChain(decision.usage, {
    interactions: input.interactions !== undefined,
    calibrated: decision.calibrated,
    fresh: freshChain,
  });
  return { usage, freshChain };
}

async function decide(
  input: GuardRequestInput,
  observed: Observed,
  reason: CompactionReason | undefined,
  prepared: PreparedCheck | undefined,
): Promise<Decision & { readonly preparedDropped?: string | undefined }> {
  if (reason !== undefined) {
    const compacted = await compact(input, observed, reason, prepared);
    if (compacted.waits) return { ...sendAsIs(input, observed), preparation: undefined };
    return finish(input, observed, reason, compacted);
  }
  // Every reduction re-sends the whole chain in Interactions mode: no masking for cost there.
  const stale = input.interactions ? undefined : staleMasking(input, observed);
  // A masking for cost sends less than was measured: preparation is planned again on the next call.
  if (stale) return finish(input, observed, undefined, { masking: stale, view: stale, estimate: stale.estimate });
  const aside = input.lateResponseView === true || input.ownRequestAt !== undefined;
  const preparation = prepared?.valid || aside ? undefined : preparationFor(input, observed);
  return { ...sendAsIs(input, observed), preparation };
}
