/**
 * The before-model pipeline shared by the plugin and the agent-callback forms: once per request,
 * in order per agent of a session, read the request, run the core, apply its result, then let
 * other plugins' compaction hooks run. It fails open: the guard never fails the turn.
 */
import type { Context, LlmRequest } from '@google/adk';
import { guardRequest } from '../../pipeline/guard-request.js';
import { applyResult } from './apply-result.js';
import { CompactionHooks, compactionTrigger } from './compaction-hooks.js';
import type { GuardParts } from './guard-parts.js';
import type { PolicyCache } from '../runtime/policy-cache.js';
import { readRequest, readStoredState } from './read-request.js';
import { scopeOfContext } from '../runtime/session-scope.js';
import { logFailure } from '../../logging/failure-log.js';
import { LOG_PREFIX } from '../../logging/log-prefix.js';

export class BeforeModelGuard {
  /** Requests already handled, so the plugin and agent-callback forms never both apply. */
  private readonly handled = new WeakSet<LlmRequest>();

  constructor(
    private readonly parts: GuardParts,
    private readonly policies: PolicyCache,
  ) {}

  /** Guards `request` once; never throws. */
  async guard(context: Context, request: LlmRequest): Promise<void> {
    if (this.handled.has(request)) return;
    this.handled.add(request);
    // App + user + session: the same session id may belong to another user or app.
    const key = `${scopeOfContext(context)}\u0000${context.agentName}`;
    await this.parts.queue.run(key, () => this.guardInOrder(context, request, key));
  }

  private async guardInOrder(context: Context, request: LlmRequest, key: string): Promise<void> {
    const logger = this.parts.logger;
    let hooks: CompactionHooks | undefined;
    let compacted = false;
    try {
      const policy = this.policies.of(context.agentName);
      if (!policy.enabled) return;
      const stored = readStoredState(context, logger);
      // Before anything that may fail, so the declaration is the same on every call.
      const windowChoice = this.parts.windows.agentWindow(policy, request.model, stored.usage, context.agentName);
      await this.parts.recallTool.declare(context, request, policy, windowChoice.window);
      hooks = new CompactionHooks(context.invocationContext, compactionTrigger(stored.requested), logger, key);
      const read = readRequest(context, request, key, policy, { ...stored, windowChoice }, hooks, this.parts);
      const result = await guardRequest(read.input);
      // A masking is a compaction too, for other plugins' hooks (made without a model call).
      compacted = result.masking !== undefined || result.compaction !== undefined;
      await applyResult(context, request, key, read, result, this.parts);
      this.parts.left.remember(context, request);
    } catch (error) {
      // Fail open: the request goes as ADK built it, the turn is not failed by the guard.
      logFailure(
        logger,
        'error',
        `${LOG_PREFIX} agent '${context.agentName}': guard failed; the request is sent unchanged.`,
        error,
      );
    } finally {
      // Other plugins' compaction hooks (logged and ignored if they throw).
      await hooks?.settle(compacted);
    }
  }
}
