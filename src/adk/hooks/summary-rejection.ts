/**
 * A summary request the provider rejected as too long teaches what a rejected call of the agent
 * teaches (adk/hooks/model-error-event.ts): the summarizer is, by default, the agent's own model,
 * and an unknown model assumed at 128k that really has 64k was otherwise rejected once more, on the
 * agent's next oversized call. The rejection is caught on its way to the mechanical summary
 * (summary/summarizer.ts), then learned after the call's decision is written: for the agent when the
 * summarizer is the agent's model (by name), else only as the summarizer model's own window. Either holds
 * for this session (its state) and this user's; for every session once another user's rejection states it
 * too (usage/window-statements.ts).
 */
import type { Context } from '@google/adk';
import type { SummarizeFn, SummarizeRequest } from '../../summary/summarizer.js';
import { summaryRejectionOutcome } from '../../usage/provider-feedback.js';
import { correctionFactor } from '../../estimate/calibration.js';
import { overflowMessageOf } from './overflow-message.js';
import { modelKey } from '../../estimate/model-registry.js';
import { EMPTY_USAGE, type UsageRecord } from '../../usage/stored-usage.js';
import type { ModelWindowResolver } from '../runtime/model-window-resolver.js';
import { readUsage, writeUsage } from '../runtime/state-writer.js';
import type { GuardLogger } from '../../options.js';
import { LOG_PREFIX } from '../../logging/log-prefix.js';
import { userOfContext } from '../runtime/session-scope.js';
import { REACH } from './model-error-event.js';

/** The rejection a call's summarizer met, if any: the provider's message and the estimate of the request sent. */
export interface SummaryRejection {
  value?: { readonly message: string; readonly estimate: number } | undefined;
}

/** `summarize`, noting in `slot` a "prompt too long" rejection (then thrown on, to the fallback). */
export function noteRejections(
  summarize: SummarizeFn,
  slot: SummaryRejection,
  estimate: (request: Omit<SummarizeRequest, 'signal'>) => number,
): SummarizeFn {
  return async (request, maxChars, clock) => {
    try {
      return await summarize(request, maxChars, clock);
    } catch (error) {
      const message = overflowMessageOf(error);
      if (message !== undefined) slot.value = { message, estimate: estimate(request) };
      throw error;
    }
  };
}

/**
 * Learns from the rejection noted in `slot` (once), after the call's state change is written. Returns the
 * agent's window it learned, if any (the call's budget figures are restated under it).
 */
export function learnFromSummaryRejection(
  context: Context,
  slot: SummaryRejection,
  names: { readonly agentModel: string | undefined; readonly summarizer: string | undefined },
  deps: { readonly logger: GuardLogger; readonly windows: ModelWindowResolver },
): number | undefined {
  const rejection = slot.value;
  slot.value = undefined;
  if (!rejection || names.summarizer === undefined) return undefined;
  const model = names.summarizer;
  const sameModel = modelKey(model) === modelKey(names.agentModel ?? '');
  // Another model's statement is not the agent's: it is bounded by that model's accepted sizes alone.
  const agentUsage = readUsage(context.state, context.agentName);
  const stored = sameModel ? agentUsage : EMPTY_USAGE;
  // The summary request's size as the plan reads a summarizer's window: the agent's correction applied
  // (budget/compaction-plan.ts divides the window by it again), not the heuristic count (review 26).
  const measure = Math.round(rejection.estimate * correctionFactor(agentUsage).factor);
  const outcome = summaryRejectionOutcome(
    stored,
    rejection.message,
    rejection.estimate,
    model,
    deps.windows.acceptedBy(model, userOfContext(context)),
    measure,
  );
  const name = modelKey(model);
  if (sameModel) writeUsage(context.state, context.agentName, outcome.usage);
  // Another model's window holds for this session from its state, like the agent's (replicas read it there).
  else if (outcome.learned !== undefined || outcome.bounded !== undefined)
    writeSummarizerWindow(context, agentUsage, name, outcome);
  const reach =
    outcome.learned === undefined ? undefined : deps.windows.learn(name, outcome.learned, userOfContext(context));
  const stated =
    outcome.learned !== undefined
      ? ` It states a maximum of ${outcome.learned} tokens, now the window of model '${name}' ${REACH[reach ?? 'session']}.`
      : outcome.bounded !== undefined
        ? ` It states no maximum: model '${name}' is taken to hold less than the ~${outcome.bounded} tokens sent, for this session.`
        : '';
  // Numbers and the model name only: the message itself may quote the conversation.
  deps.logger.warn(
    `${LOG_PREFIX} agent '${context.agentName}': the summarizer's model rejected the summary request as too long; the mechanical summary was used.${stated}`,
  );
  return sameModel ? (outcome.learned ?? outcome.bounded) : undefined;
}

/** Another model's window for this session's summaries: a bound only lowers the one known (a statement sets it). */
function writeSummarizerWindow(
  context: Context,
  usage: UsageRecord,
  name: string,
  outcome: { readonly learned?: number | undefined; readonly bounded?: number | undefined },
): void {
  const known = usage.summarizerWindowModel === name ? usage.summarizerWindow : undefined;
  const bound = outcome.bounded ?? Infinity;
  const window = outcome.learned ?? Math.min(known ?? bound, bound);
  writeUsage(context.state, context.agentName, { ...usage, summarizerWindow: window, summarizerWindowModel: name });
}
