/**
 * The before-model pipeline shared by the plugin and the agent-callback forms: once per request,
 * in order per agent of a session, read the request, run the core, apply its result, then let
 * other plugins' compaction hooks run. It fails open: the guard never fails the turn.
 */
import type { BasePlugin, Context, LlmRequest } from '@google/adk';
import { guardRequest, type GuardRequestResult } from '../../pipeline/guard-request.js';
import { applyResult, billUnapplied } from './apply-result.js';
import { CompactionHooks, compactionTrigger } from './compaction-hooks.js';
import type { GuardParts } from './guard-parts.js';
import type { PolicyCache } from '../runtime/policy-cache.js';
import { CONSOLIDATE_CONTEXT_FLAG, readRequest, readStoredState } from './read-request.js';
import { historyMayBeEdited, requestMayBeEditedAfter, requestMayBeEditedAfterCallback } from './history-editors.js';
import { scopeOfContext } from '../runtime/session-scope.js';
import { logFailure } from '../../logging/failure-log.js';
import { LOG_PREFIX } from '../../logging/log-prefix.js';
import { installRetryingModel, offerRetry } from '../runtime/retrying-model.js';
import { retryRejected, type RetryDecision } from './retry-rejected.js';
import { listedRoutedName } from '../runtime/listed-routed-name.js';
import { hideOwnArtifacts } from './hide-own-artifacts.js';
import { markCodeOutputs } from './code-output-marks.js';
import type { RecallPending } from './read-request.js';
import type { ResolvedPolicy } from '../../options.js';
import { namedCutsOf, recallDue } from '../../recall/declaration.js';
import { stateKeysFor } from '../../state/keys.js';
import { learnFromSummaryRejection, type SummaryRejection } from './summary-rejection.js';
import { restateBudgetFigures } from '../tools/context-status-tool.js';
import { policyBudget } from '../../budget/compute-budget.js';
import { readUsage } from '../runtime/state-writer.js';
import { userOfContext } from '../runtime/session-scope.js';
import { carryAgentAdditions } from '../../usage/agent-additions.js';
import { CallFixedPart } from './call-fixed-part.js';
import { startFromSibling } from './sibling-start.js';
import { normalizeModelName } from '../../estimate/model-registry.js';
import { isFirstCall } from '../../usage/first-call.js';
import type { UsageRecord } from '../../usage/stored-usage.js';

/** ADK's `consolidate_context` request, served: cleared as ADK's own compactor clears it. */
function clearConsolidateRequest(context: Context): void {
  context.state.set(CONSOLIDATE_CONTEXT_FLAG, false);
  context.state.set(`${CONSOLIDATE_CONTEXT_FLAG}_detail`, undefined);
}

export class BeforeModelGuard {
  /** Requests already handled, so the plugin and agent-callback forms never both apply. */
  private readonly handled = new WeakSet<LlmRequest>();

  constructor(
    private readonly parts: GuardParts,
    private readonly policies: PolicyCache,
  ) {}

  /** Guards `request` from `plugin`'s before-model callback: exact where a plugin or processor before it could edit. */
  guardAsPlugin(context: Context, request: LlmRequest, plugin: BasePlugin): Promise<void> {
    const { invocationContext } = context;
    return this.guard(context, request, historyMayBeEdited(invocationContext, plugin), {
      editedAfter: () => requestMayBeEditedAfter(invocationContext, plugin),
    });
  }

  /**
   * Guards `request` once, and offers the model wrapper one retry of it should the provider
   * reject it as too long (adk/hooks/retry-rejected.ts); never throws. `exact`: something before the guard
   * could have edited the history (adk/hooks/history-editors.ts): the measure cache compares every content.
   */
  async guard(
    context: Context,
    request: LlmRequest,
    exact = true,
    after?: Pick<GuardCall, 'editedAfter'>,
  ): Promise<void> {
    if (this.handled.has(request)) return;
    this.handled.add(request);
    if (this.parts.returns.nextCall(context, after !== undefined))
      this.parts.warnings.warn(
        'unseen-response',
        `${LOG_PREFIX} agent '${context.agentName}': no model response has reached the guard's afterModelCallback in its last guarded calls: another plugin answers afterModelCallback before the guard, or a plugin or callback answers beforeModelCallback after it. The guard learns real token counts from responses: register ContextGuard before plugins that return a value from afterModelCallback.`,
      );
    // App + user + session: the same session id may belong to another user or app.
    const key = `${scopeOfContext(context)}\u0000${context.agentName}`;
    const built = request.contents;
    let sent: GuardRequestResult | undefined;
    // As one of the agent's own callbacks (attached, an AgentTool child's) unless the plugin said otherwise.
    const editedAfter = after?.editedAfter ?? (() => requestMayBeEditedAfterCallback(context.invocationContext));
    const call = { exact, editedAfter };
    await this.parts.queue.run(key, async () => void (sent = await this.guardInOrder(context, request, key, call)));
    if (!sent) return;
    const again = (retry: RetryDecision) => this.guardAgain(context, request, key, retry);
    // What the estimate counted of what the callbacks added to the last request (usage/agent-additions.ts).
    const carried = sent.state.usage.agentAddedTokens ?? 0;
    try {
      // Before ADK reads the agent's model for this call (after the before-model callbacks).
      installRetryingModel(context.invocationContext.agent);
      offerRetry(
        request,
        retryRejected({ context, request, built, estimate: sent.estimate, carried }, again, this.parts),
      );
    } catch (error) {
      // A model ADK cannot resolve fails ADK's own read of it next; the guard does not fail the turn first.
      logFailure(
        this.parts.logger,
        'error',
        `${LOG_PREFIX} agent '${context.agentName}': could not wrap its model; a rejected call will not be retried.`,
        error,
      );
    }
  }

  /** The decision made again on a rejected request, applied only if `retry.accept` takes it. */
  private async guardAgain(
    context: Context,
    request: LlmRequest,
    key: string,
    retry: RetryDecision,
  ): Promise<GuardRequestResult | undefined> {
    let result: GuardRequestResult | undefined;
    await this.parts.queue.run(
      key,
      async () =>
        void (result = await this.guardInOrder(context, request, key, { exact: true, editedAfter: () => true, retry })),
    );
    return result;
  }

  /**
   * Declares the guard's recall tool when the session already refers to it (recall/declaration.ts:
   * `recallDue`); otherwise returns it as pending: the core may still mask or summarize on this call.
   */
  private async declareRecallIfDue(
    context: Context,
    request: LlmRequest,
    policy: ResolvedPolicy,
    window: number,
    stored: { readonly summary: unknown; readonly usage: UsageRecord },
    fixedPart: CallFixedPart,
  ): Promise<RecallPending | undefined> {
    const fixed = { ...fixedPart.now(), declaredBefore: stored.usage.recallDeclared === true };
    const permitted = this.parts.recallTool.permitted(context, request, policy, window, fixed);
    if (permitted === undefined) return undefined;
    const keys = stateKeysFor(context.agentName);
    const namedCuts = namedCutsOf(context.state.get<unknown>(keys.toolTruncations));
    const storedRewrite = stored.summary !== undefined || context.state.get<unknown>(keys.mask) != null;
    const due = recallDue({
      storedRewrite,
      namedCuts,
      rewritesNow: false,
      declaredBefore: fixed.declaredBefore,
    });
    if (!due) return { name: permitted.name, tokens: this.parts.recallTool.addedTokens(request) };
    await this.parts.recallTool.declare(context, request);
    return undefined;
  }

  /**
   * Whether a session's first message may be sent whole on the estimate alone (pipeline/fit-request.ts
   * `messageFactor`): only where a rejection of it is retried with it cut. So not with a `defaultCorrection` the
   * user gave (it states their provider's ratio), not where a callback after the guard could edit the request in
   * place (a retry cannot keep that edit), and only for a Gemini model, whose rejection the guard reads.
   */
  private sendsFirstMessageOnEstimate(
    context: Context,
    request: LlmRequest,
    call: GuardCall,
    usage: UsageRecord,
  ): boolean {
    // Read only on an agent's first call of a session: the rest is never needed after it.
    if (call.retry || !isFirstCall(usage) || this.policies.given(context.agentName, 'defaultCorrection')) return false;
    return normalizeModelName(request.model ?? '').startsWith('gemini') && !call.editedAfter();
  }

  /** The result applied, or undefined when the guard is off, failed, or `accept` refused it. */
  /**
   * Learns from the summary request's rejection once the result is applied. Its own failure is logged as
   * such: the request already goes out as the guard changed it, not "unchanged" as the outer catch says.
   */
  private learnAfterApplied(context: Context, call: AppliedCall): void {
    try {
      const learned = learnFromSummaryRejection(context, call.rejection, call.names, this.parts);
      if (learned !== undefined) restateFigures(context, learned, call.policy, call.request);
    } catch (error) {
      logFailure(
        this.parts.logger,
        'warn',
        `${LOG_PREFIX} agent '${context.agentName}': learning from the summary request's rejection failed; the request is sent as the guard changed it.`,
        error,
      );
    }
  }

  /** The stored state, the window, the call's fixed part and the recall tool's declaration (made if due). */
  private async callState(context: Context, request: LlmRequest, key: string, policy: ResolvedPolicy) {
    const stored = readStoredState(context, this.parts.logger);
    const windowChoice = this.parts.windows.agentWindow(policy, request.model, stored.usage, {
      name: context.agentName,
      user: userOfContext(context),
      routedName: listedRoutedName(context.invocationContext.agent),
    });
    // Estimated once for the recall check and the reading, again only if a declaration changed it in between.
    const kept = { memo: this.parts.fixedParts, scope: key };
    const fixedPart = new CallFixedPart(request, this.parts.tokenizer, this.parts.fixedMemo, kept);
    // Before anything that may fail, so the declaration, once due, is the same on every call; none where refused.
    const ownTools = this.parts.recallTool.ownToolsAllowed(context, request);
    const window = windowChoice.window;
    // From the first call, so the tools sent are the same on every call of the session; before the recall tool, which
    // may arrive after the decision, so the two keep one order and its added tokens are measured beside it (review 38).
    if (policy.budgetLine && ownTools) await this.parts.statusTool.declare(context, request);
    const recallPending = ownTools
      ? await this.declareRecallIfDue(context, request, policy, window, stored, fixedPart)
      : undefined;
    return { stored, windowChoice, fixedPart, recallPending };
  }

  private async guardInOrder(
    context: Context,
    request: LlmRequest,
    key: string,
    call: GuardCall,
  ): Promise<GuardRequestResult | undefined> {
    const { exact, retry } = call;
    const logger = this.parts.logger;
    let hooks: CompactionHooks | undefined;
    let compacted = false;
    try {
      const policy = this.policies.of(context.agentName);
      if (!policy.enabled) return undefined;
      hideOwnArtifacts(request);
      markCodeOutputs(context, request);
      const { stored, windowChoice, fixedPart, recallPending } = await this.callState(context, request, key, policy);
      hooks = new CompactionHooks(context.invocationContext, compactionTrigger(stored.requested), logger, key);
      const summaryRejection: SummaryRejection = {};
      // A retry's contents come without what was added after the guard: those tokens are carried instead.
      const usage = retry
        ? carryAgentAdditions(stored.usage, retry.addedContentTokens)
        : startFromSibling(context, request, stored.usage, logger);
      const firstMessageOnEstimate = this.sendsFirstMessageOnEstimate(context, request, call, usage);
      const state = {
        ...stored,
        usage,
        windowChoice,
        recallPending,
        summaryRejection,
        fixedPart,
        afterGuard: { firstMessageOnEstimate, rejectionRetried: !call.editedAfter() },
      };
      const read = readRequest(context, request, key, policy, state, hooks, this.parts, exact);
      const result = await guardRequest(read.input);
      if (retry && !retry.accept(result)) return billUnapplied(context, read, result, this.parts.reporter);
      // A masking is a compaction too, for other plugins' hooks (made without a model call).
      compacted = result.masking !== undefined || result.compaction !== undefined;
      // The placeholders and the summary name the recall tool: it is sent from this call on.
      if (recallPending && compacted) await this.parts.recallTool.declare(context, request);
      await applyResult(context, request, key, read, result, this.parts);
      // After the decision's usage record is written: the summary request's rejection teaches what it states.
      const names = { agentModel: request.model, summarizer: read.summarizerName };
      this.learnAfterApplied(context, { rejection: summaryRejection, names, policy, request });
      if (stored.consolidate && result.state.compactionRequestServed) clearConsolidateRequest(context);
      const fixed = fixedPart.now();
      this.parts.left.remember(context, request, fixed.systemTokens + fixed.toolTokens);
      return result;
    } catch (error) {
      // Fail open: the request goes as ADK built it, the turn is not failed by the guard.
      logFailure(
        logger,
        'error',
        `${LOG_PREFIX} agent '${context.agentName}': guard failed; the request is sent unchanged.`,
        error,
      );
      return undefined;
    } finally {
      // Other plugins' compaction hooks (logged and ignored if they throw).
      await hooks?.settle(compacted);
    }
  }
}

/**
 * How one call is guarded: `exact` (history-editors.ts), whether a plugin or callback after the guard could edit it
 * (then a rejection of it may not be retried: no masking waits on it), a retry.
 */
interface GuardCall {
  readonly exact: boolean;
  readonly editedAfter: () => boolean;
  readonly retry?: RetryDecision | undefined;
}

/** What learning from this call's summary request after the result was applied reads. */
interface AppliedCall {
  readonly rejection: SummaryRejection;
  readonly names: { readonly agentModel: string | undefined; readonly summarizer: string | undefined };
  readonly policy: ResolvedPolicy;
  readonly request: LlmRequest;
}

/** This call's budget figures under a window its summary request's rejection taught (for `context_status`). */
function restateFigures(context: Context, window: number, policy: ResolvedPolicy, request: LlmRequest): void {
  const usage = readUsage(context.state, context.agentName);
  const budget = policyBudget(window, policy, request.config?.maxOutputTokens, usage.learnedCorrection !== undefined);
  restateBudgetFigures(context, budget, usage);
}
