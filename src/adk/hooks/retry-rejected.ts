/**
 * The retry of a call the provider rejected as too long, run by the model wrapper
 * (adk/runtime/retrying-model.ts) inside the same model call: learn from the rejection as the
 * error hook would (a stated window, the stated size, a forced compaction), decide the request
 * afresh from the contents ADK built, and send it again only when that made it smaller and the
 * guard believes it fits. What the agent's own before-model callbacks and the plugins registered
 * after the guard added to the rejected request (they ran after the guard, and do not run again)
 * is kept: the decision counts it as a part it cannot reduce, and it is put back around the
 * decision's contents as it was; contents they changed rather than added to (replaced, removed,
 * moved, or edited in place: a part pushed into the guard's budget line) cannot be kept, so such a
 * request is not retried. Counted in the usage record, on the call's record and in telemetry.
 * Never throws: a failure of the guard leaves the rejection to ADK's error path, as before.
 */
import type { Context, LlmRequest } from '@google/adk';
import type { Content } from '@google/genai';
import type { GuardRequestResult } from '../../pipeline/guard-request.js';
import { NO_COUNTS } from '../../records/call-record.js';
import { retryPays, withDiscardedSummaries, withRetriedCall } from '../../usage/retry-decision.js';
import { addedContents, addedContentTokens, aroundAdded, type AddedContents } from '../../estimate/added-contents.js';
import { carryAgentAdditions } from '../../usage/agent-additions.js';
import { updateUsage } from '../runtime/state-writer.js';
import { recordRetriedCall } from '../../telemetry/guard-metrics.js';
import { overflowMessageOf } from './overflow-message.js';
import { logFailure } from '../../logging/failure-log.js';
import { LOG_PREFIX } from '../../logging/log-prefix.js';
import type { GuardParts } from './guard-parts.js';
import type { LeftSince } from './left-requests.js';
import { markLearned } from './learned-rejections.js';
import { learnFromRejection } from './model-error-event.js';
import { inSessionLog } from '../../logging/session-log.js';
import type { RetryRejected } from '../runtime/retrying-model.js';

/** The call as the guard first sent it. */
interface SentCall {
  readonly context: Context;
  readonly request: LlmRequest;
  /** The contents as ADK built them, before the guard's first decision. */
  readonly built: Content[];
  /** Heuristic estimate of what the guard sent. */
  readonly estimate: number;
  /** Of `estimate`, the tokens carried for what the callbacks added to the last request. */
  readonly carried: number;
}

/** How the guard's decision is made again on a rejected request. */
export interface RetryDecision {
  /** Applies the new decision (returns true) or leaves the request and the state as they are. */
  readonly accept: (result: GuardRequestResult) => boolean;
  /** Heuristic tokens of the contents added after the guard, kept out of the decision and put back after it. */
  readonly addedContentTokens: number;
}

/** Runs the guard's decision again on the request; returns it when applied. */
type GuardAgain = (retry: RetryDecision) => Promise<GuardRequestResult | undefined>;

/** The counts a retry adds to its call's record: the rejection, and the retry. */
const RETRY_COUNTS = { ...NO_COUNTS, rejectedCalls: 1, retriedCalls: 1 };

/** What was added to the rejected request after the guard left it. */
interface Additions {
  readonly contents: AddedContents;
  /** Heuristic tokens of everything added (system instruction, tools, contents), and of the contents alone. */
  readonly tokens: number;
  readonly contentTokens: number;
}

export function retryRejected(sent: SentCall, guardAgain: GuardAgain, parts: GuardParts): RetryRejected {
  // It runs under ADK's iteration of the model, outside the plugin's callbacks: its lines name the session too.
  return (error) => inSessionLog(sent.context, () => retryOnce(sent, guardAgain, parts, error));
}

async function retryOnce(sent: SentCall, guardAgain: GuardAgain, parts: GuardParts, error: unknown): Promise<boolean> {
  const { context, request } = sent;
  const message = overflowMessageOf(error);
  if (message === undefined || context.abortSignal?.aborted) return false;
  // The rejection is the call's return: a summary prepared from its request starts now, and the retry
  // below may wait for it (it waited for the call, the call for the retry: the turn never ended).
  parts.returns.returned(context);
  const rejected = request.contents;
  try {
    const left = parts.left.peek(context, request);
    const { notAbout } = learnFromRejection(context, request, message, parts);
    markLearned(error);
    const added = left && !left.edited && additionsOf(left, rejected, parts);
    if (!left || !added) return notRetried(context, parts, 'changed');
    // What was rejected: what the guard sent, with what was added after it instead of what it carried for that.
    const rejectedEstimate = sent.estimate - sent.carried + added.tokens;
    // Callbacks that pushed into ADK's own array (the guard left it as built) changed it: the guard's copy is ADK's.
    request.contents = [...(sent.built === rejected ? left.shape.contents : sent.built)];
    let refused: GuardRequestResult | undefined;
    const accept = (result: GuardRequestResult): boolean => {
      const pays = retryPays({
        rejectedEstimate,
        estimate: result.estimate,
        overLimit: !!result.overLimit,
        notAbout,
      });
      if (!pays) refused = discard(context, result);
      return pays;
    };
    const retried = await guardAgain({ accept, addedContentTokens: added.contentTokens });
    if (!retried) {
      request.contents = rejected;
      return notRetried(context, parts, refused?.overLimit && added.tokens > 0 ? { refused, added } : 'smaller');
    }
    request.contents = aroundAdded(added.contents, request.contents);
    keepAdditions(context, added.tokens, parts);
    countRetry(context, parts);
    parts.logger.info(
      `${LOG_PREFIX} agent '${context.agentName}': retrying the rejected call once, at ~${retried.calibrated} tokens ` +
        `(calibrated; before calibration ~${rejectedEstimate} -> ~${retried.estimate}).`,
    );
    return true;
  } catch (failure) {
    request.contents = rejected;
    logFailure(
      parts.logger,
      'error',
      `${LOG_PREFIX} agent '${context.agentName}': retry failed; not retried.`,
      failure,
    );
    return false;
  }
}

/** What the callbacks added after the guard left `left`; undefined when they changed the guard's contents. */
function additionsOf(left: LeftSince, rejected: readonly Content[], parts: GuardParts): Additions | undefined {
  const contents = addedContents(left.shape.contents, rejected);
  if (!contents) return undefined;
  return { contents, tokens: left.added, contentTokens: addedContentTokens(contents, parts.tokenizer) };
}

/** A decision not applied: the summaries it made are thrown away with it, and counted. */
function discard(context: Context, result: GuardRequestResult): GuardRequestResult {
  const { compactions, discardedCompactions } = result.counts;
  updateUsage(context.state, context.agentName, (usage) =>
    withDiscardedSummaries(usage, compactions + discardedCompactions),
  );
  return result;
}

/**
 * The retried request carries what was added again: the next requests carry it too (measured on the
 * rejected request), and the answer has nothing more to measure.
 */
function keepAdditions(context: Context, added: number, parts: GuardParts): void {
  updateUsage(context.state, context.agentName, (usage) => carryAgentAdditions(usage, added));
  parts.left.forget(context);
}

/** Logs why the rejection goes on to ADK's error path; returns false (not retried). */
function notRetried(
  context: Context,
  parts: GuardParts,
  why: 'changed' | 'smaller' | { readonly refused: GuardRequestResult; readonly added: Additions },
): false {
  const agent = `${LOG_PREFIX} agent '${context.agentName}'`;
  if (why === 'smaller') parts.logger.info(`${agent}: the rejected request cannot be made smaller; not retried.`);
  else if (why === 'changed')
    parts.logger.warn(
      `${agent}: the rejected request is not retried: the agent's own before-model callbacks or a plugin registered after the guard changed the contents the guard sent (not only added to them), and a retry cannot keep those changes.`,
    );
  else parts.logger.warn(`${agent}: ${cannotFit(why.refused, why.added.tokens)}`);
  return false;
}

/** The one warning for a request that what was added after the guard keeps over the limit, figures only. */
function cannotFit(refused: GuardRequestResult, added: number): string {
  const factor = refused.estimate > 0 ? refused.calibrated / refused.estimate : 1;
  const { hardLimit, window } = refused.budget;
  return (
    `the rejected request is not retried: ~${Math.ceil(added * factor)} of its tokens were added after the guard ` +
    `measured it, by the agent's own before-model callbacks or plugins registered after the guard, and with the ` +
    `history reduced to the least the guard can send it would still be ~${refused.calibrated} tokens, over the hard ` +
    `limit of ${hardLimit} (window ${window}). The rejection reaches the agent; make those callbacks add less.`
  );
}

function countRetry(context: Context, parts: GuardParts): void {
  updateUsage(context.state, context.agentName, withRetriedCall);
  parts.calls.stash(context, RETRY_COUNTS);
  recordRetriedCall(context.agentName);
}
