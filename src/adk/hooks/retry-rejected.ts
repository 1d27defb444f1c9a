/**
 * The retry of a call the provider rejected as too long, run by the model wrapper
 * (adk/runtime/retrying-model.ts) inside the same model call: learn from the rejection as the
 * error hook would (a stated window, the stated size, a forced compaction), decide the request
 * afresh from the contents ADK built, and send it again only when that made it smaller and the
 * guard believes it fits. Counted in the usage record, on the call's record and in telemetry.
 * Never throws: a failure of the guard leaves the rejection to ADK's error path, as before.
 */
import type { Context, LlmRequest } from '@google/adk';
import type { Content } from '@google/genai';
import type { GuardRequestResult } from '../../pipeline/guard-request.js';
import { NO_COUNTS } from '../../records/call-record.js';
import { retryPays, withDiscardedSummaries, withRetriedCall } from '../../usage/retry-decision.js';
import { updateUsage } from '../runtime/state-writer.js';
import { recordRetriedCall } from '../../telemetry/guard-metrics.js';
import { isOverflowError } from '../../usage/provider-feedback.js';
import { logFailure } from '../../logging/failure-log.js';
import { LOG_PREFIX } from '../../logging/log-prefix.js';
import type { GuardParts } from './guard-parts.js';
import { markLearned } from './learned-rejections.js';
import { learnFromRejection } from './model-error-event.js';
import type { RetryRejected } from '../runtime/retrying-model.js';

/** The call as the guard first sent it. */
interface SentCall {
  readonly context: Context;
  readonly request: LlmRequest;
  /** The contents as ADK built them, before the guard's first decision. */
  readonly built: Content[];
  /** Heuristic estimate of what was sent. */
  readonly estimate: number;
}

/** Runs the guard's decision again on the request; applies it and returns it only when `accept` says so. */
type GuardAgain = (accept: (result: GuardRequestResult) => boolean) => Promise<GuardRequestResult | undefined>;

/** The counts a retry adds to its call's record: the rejection, and the retry. */
const RETRY_COUNTS = { ...NO_COUNTS, rejectedCalls: 1, retriedCalls: 1 };

export function retryRejected(sent: SentCall, guardAgain: GuardAgain, parts: GuardParts): RetryRejected {
  return async (error) => {
    const { context, request } = sent;
    const message = rejectionMessage(error);
    if (!isOverflowError(message) || context.abortSignal?.aborted) return false;
    const rejected = request.contents;
    try {
      learnFromRejection(context, request, message, parts);
      markLearned(error);
      request.contents = sent.built;
      const accept = (result: GuardRequestResult): boolean => {
        const pays = retryPays({
          rejectedEstimate: sent.estimate,
          estimate: result.estimate,
          overLimit: !!result.overLimit,
        });
        const { compactions, discardedCompactions } = result.counts;
        if (!pays)
          updateUsage(context.state, context.agentName, (usage) =>
            withDiscardedSummaries(usage, compactions + discardedCompactions),
          );
        return pays;
      };
      const retried = await guardAgain(accept);
      if (!retried) {
        request.contents = rejected;
        parts.logger.info(
          `${LOG_PREFIX} agent '${context.agentName}': the rejected request cannot be made smaller; not retried.`,
        );
        return false;
      }
      countRetry(context, parts);
      parts.logger.info(
        `${LOG_PREFIX} agent '${context.agentName}': retrying the rejected call once, ~${sent.estimate} -> ~${retried.estimate} tokens.`,
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
  };
}

/**
 * The provider's words: a thrown error's message, or the `errorMessage` of a failed interaction
 * (Gemini's Interactions API answers a failure as a response with `errorCode`, not a throw).
 */
function rejectionMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  const response = error as { errorCode?: unknown; errorMessage?: unknown } | null;
  if (typeof response === 'object' && response !== null && typeof response.errorMessage === 'string')
    return response.errorMessage;
  return String(error);
}

function countRetry(context: Context, parts: GuardParts): void {
  updateUsage(context.state, context.agentName, withRetriedCall);
  parts.calls.stash(context, RETRY_COUNTS);
  recordRetriedCall(context.agentName);
}
