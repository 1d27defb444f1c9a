/**
 * The plugin's two hooks after a model call, each failing safe: an answer is recorded on its
 * response event and in the usage record (adk/hooks/record-response.ts), a failed call may teach a
 * window and hands ADK an event that carries the step's state (adk/hooks/model-error-event.ts). A
 * failure of the guard itself is logged and the call goes on as ADK would have it.
 */
import type { Context, Event, InvocationContext, LlmRequest, LlmResponse } from '@google/adk';
import { mendA2aEvent } from './a2a-events.js';
import { settleAnsweredElsewhere } from './call-records.js';
import { attachChildCalls } from '../runtime/child-calls.js';
import { logFailure } from '../../logging/failure-log.js';
import { LOG_PREFIX } from '../../logging/log-prefix.js';
import type { GuardLogger } from '../../options.js';
import type { GuardParts } from './guard-parts.js';
import { modelErrorEvent } from './model-error-event.js';
import type { PolicyCache } from '../runtime/policy-cache.js';
import { recordResponse } from './record-response.js';
import { WarnOnce } from '../runtime/warn-once.js';

export class ModelResponseHooks {
  private readonly notices: WarnOnce;

  constructor(
    private readonly parts: GuardParts,
    private readonly policies: PolicyCache,
    private readonly logger: GuardLogger,
  ) {
    this.notices = new WarnOnce(logger);
  }

  /** Said once per model: a call of a model without a price is counted, not costed. */
  private readonly onUnpriced = (model: string): void =>
    this.notices.inform(
      `unpriced:${model}`,
      `${LOG_PREFIX} no price is known for model '${model}': its calls are counted (status().unpricedCalls) but not costed; the prices option can add it (docs/observability.md).`,
    );

  /** After an answer: the records onto its event, its count and bill into usage; never throws. */
  afterModel(context: Context, response: LlmResponse): void {
    if (!response.partial) this.parts.returns.returned(context);
    try {
      if (!this.policies.of(context.agentName).enabled) return;
      recordResponse(context, response, this.parts.priceOf, this.parts, this.onUnpriced);
    } catch (error) {
      logFailure(
        this.logger,
        'error',
        `${LOG_PREFIX} failed to record usage; calibration skipped for this call.`,
        error,
      );
    }
  }

  /**
   * An event before the runner stores it: the records of a call another callback answered go on it, and those of
   * the `AgentTool` child runs it answers; then an A2A event is mended (adk/hooks/a2a-events.ts); never throws.
   */
  eventArrived(invocation: InvocationContext, event: Event): Promise<undefined> {
    try {
      settleAnsweredElsewhere(invocation, event, this.parts);
      attachChildCalls(event);
    } catch (error) {
      logFailure(this.logger, 'error', `${LOG_PREFIX} failed to put a call's records on its event.`, error);
    }
    return mendA2aEvent(invocation, event, this.logger);
  }

  /** After a failed call: the event to hand ADK back, if any; never throws. */
  onModelError(context: Context, request: LlmRequest, error: Error): LlmResponse | undefined {
    this.parts.returns.returned(context);
    try {
      if (!this.policies.of(context.agentName).enabled) return undefined;
      return modelErrorEvent(context, request, error, this.parts);
    } catch (failure) {
      logFailure(
        this.logger,
        'error',
        `${LOG_PREFIX} onModelErrorCallback failed; ADK's default error handling applies.`,
        failure,
      );
      return undefined;
    }
  }
}
