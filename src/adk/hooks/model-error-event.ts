/**
 * A failed model call: learn from a "prompt too long" rejection, and hand ADK back a full error
 * event when the step wrote guard state (ADK drops a failed step's state delta unless this
 * callback returns an event that carries it).
 */
import { createEvent, type Context, type Event, type LlmRequest } from '@google/adk';
import { rejectionOutcome, type RefusedStatement } from '../../usage/provider-feedback.js';
import { mediaBytesRefused, overflowMessageOf } from './overflow-message.js';
import { takeCallRecords } from './call-records.js';
import { STATE_PREFIX } from '../../state/keys.js';
import type { GuardLogger } from '../../options.js';
import type { CompactionReporter } from './compaction-reporter.js';
import type { ModelWindowResolver } from '../runtime/model-window-resolver.js';
import { readUsage, writeUsage } from '../runtime/state-writer.js';
import type { PendingCalls } from './pending-calls.js';
import type { LeftRequests } from './left-requests.js';
import { recordAgentAdditions } from '../../usage/agent-additions.js';
import { rejectedMeasure } from '../../usage/rejected-bound.js';
import { LOG_PREFIX } from '../../logging/log-prefix.js';
import { wasLearned } from './learned-rejections.js';
import { userOfContext } from '../runtime/session-scope.js';
import { beganHold } from '../../usage/failover.js';
import { listedRoutedName } from '../runtime/listed-routed-name.js';

/** The event to hand back to ADK for a failed model call, if the step wrote guard state. */
export function modelErrorEvent(
  context: Context,
  request: LlmRequest | undefined,
  error: Error,
  deps: {
    logger: GuardLogger;
    windows: ModelWindowResolver;
    reporter: CompactionReporter;
    calls: PendingCalls;
    left: LeftRequests;
  },
): Event | undefined {
  const agentName = context.agentName;
  const message = error?.message ?? String(error);
  const overflow = overflowMessageOf(error);
  const rejected = overflow !== undefined;
  // A rejection the retry already learned from (and did not retry) is not learned twice.
  if (rejected && !wasLearned(error)) learnFromRejection(context, request, overflow, deps);
  const prefix = `${STATE_PREFIX}:${agentName}:`;
  if (!Object.keys(context.actions.stateDelta).some((key) => key.startsWith(prefix))) return undefined;
  // ADK persists a failed step's state delta only through an event it is handed back.
  const { errorCode, errorMessage } = describeModelError(message);
  // The call's own record: what was decided before the model call, and the rejection.
  const metadata = takeCallRecords(context, deps, undefined, rejected);
  return createEvent({
    invocationId: context.invocationId,
    author: agentName,
    branch: context.invocationContext.branch,
    actions: context.actions,
    errorCode,
    errorMessage,
    ...(metadata ? { customMetadata: metadata } : {}),
  });
}

export function learnFromRejection(
  context: Context,
  request: LlmRequest | undefined,
  message: string,
  deps: { logger: GuardLogger; windows: ModelWindowResolver; left: LeftRequests },
  model: string | undefined = request?.model,
): { readonly notAbout: boolean } {
  // The request rejected is the one the agent's callbacks left: its estimate is paired with the stated size.
  const change = deps.left.takeChange(context, request);
  const stored = readUsage(context.state, context.agentName);
  const sent = change === undefined ? stored : recordAgentAdditions(stored, change);
  // A body-size limit refusing mostly media bytes says nothing of the window: nothing is bounded by this request.
  const measure = mediaBytesRefused(message, request) ? undefined : rejectedMeasure(stored, sent);
  const outcome = rejectionOutcome(
    sent,
    message,
    model,
    deps.windows.acceptedBy(model, userOfContext(context)),
    measure,
    // A renamed RoutedLlm's members are read from the model the agent calls (review 49: its failover was learned).
    (limit) => deps.windows.isMemberWindow(listedRoutedName(context.invocationContext.agent) ?? model, limit),
  );
  const next = outcome.usage;
  writeUsage(context.state, context.agentName, next);
  // Only an earned statement spreads: to this user's sessions, to every session once another user's states it too.
  const reach =
    outcome.learned === undefined
      ? undefined
      : deps.windows.learn(next.learnedWindowModel ?? '', outcome.learned, userOfContext(context));
  const stated =
    outcome.learned !== undefined
      ? ` It states a maximum of ${outcome.learned} tokens, now the window of model '${next.learnedWindowModel}' ${REACH[reach ?? 'session']}.`
      : outcome.refused
        ? ` The maximum it states is not taken as the window: ${REFUSALS[outcome.refused]}.`
        : '';
  const bounded =
    outcome.learned === undefined && outcome.bounded !== undefined
      ? ` Its window is taken as below the rejected request, ~${outcome.bounded} tokens by the guard's measure, for this session.`
      : outcome.failover !== undefined
        ? failoverText(outcome.failover, beganHold(next))
        : '';
  // Numbers and the model name only: the message itself may quote the conversation.
  deps.logger.warn(
    `${LOG_PREFIX} agent '${context.agentName}': the model rejected the request as too long; it is made smaller before it is sent again where anything can be removed (inside this call when it can be retried, else on the next call; not where the system instruction, tools and pins alone are over the window).${stated}${bounded}`,
  );
  return { notAbout: outcome.notAbout === true };
}

/** Where a learned window holds, for the warning (usage/window-statements.ts). */
export const REACH: Record<'session' | 'user' | 'process', string> = {
  session: 'for this session',
  user: "for this user's sessions (for every session of this app once another user's rejection states it too)",
  process: "for every session of this app (another user's rejection stated it too)",
};

const REFUSALS: Record<RefusedStatement, string> = {
  'not-over': 'the size it states for the request is not over it',
  'size-inconsistent': 'the size it states cannot be the request that was sent',
  'below-accepted': 'the model already accepted a larger request',
};

/** errorCode/errorMessage the way ADK derives them from a thrown model error. */
function describeModelError(message: string): { errorCode: string; errorMessage: string } {
  try {
    const parsed: unknown = JSON.parse(message);
    const error = (parsed as { error?: { code?: unknown; message?: unknown } } | null)?.error;
    if (error)
      return {
        // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a provider's code is a number or a string
        errorCode: String(error.code ?? 'UNKNOWN_ERROR'),
        errorMessage: typeof error.message === 'string' ? error.message : message,
      };
  } catch {
    // Not JSON: keep the raw message.
  }
  return { errorCode: 'UNKNOWN_ERROR', errorMessage: message };
}

/** What a failover-shaped refusal does to the session's window: nothing, or, from the second, a hold (usage/failover.ts). */
function failoverText(window: number, held: boolean): string {
  const routed = ` ${window} is the window of one of its routed models, which a failover sent the request to`;
  return held
    ? `${routed} again: its router is taken to stay on that model, and the session is held to ${window} tokens for a while.`
    : `${routed}: the session's window is not lowered.`;
}
