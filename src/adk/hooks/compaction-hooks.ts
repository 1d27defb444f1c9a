/**
 * Fires ADK's `beforeContextCompaction` / `afterContextCompaction` plugin
 * hooks around a guard compaction, so logging and metrics plugins see the
 * guard's compactions as they see ADK's own compactors'.
 *
 * ADK 2.0.0 fires them from `ContextCompactorRequestProcessor` as
 * `before → compact → after`, through `invocationContext.pluginManager`,
 * with only `{ invocationContext, trigger }`. The guard does the same:
 * `before` just before its summarizer is called, `after` once the summary and
 * the audit record are in state (`context_guard:<agent>:last_compaction`).
 * A compaction without a summarizer call fires both back to back, and a
 * `before` is always followed by an `after`, even when the summary is then
 * discarded. ADK re-throws a plugin's error from these hooks; here it is
 * logged and ignored, so no plugin can fail the turn or the compaction.
 *
 * The hooks run while the guard holds the session and agent's turn. A hook
 * that runs the same agent on the same session would wait for itself, and
 * its compactions would fire the hook again: a model call made from inside a
 * hook (tracked through the async context) neither waits nor fires.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { ContextCompactionTrigger, type InvocationContext } from '@google/adk';
import type { GuardLogger } from '../../options.js';
import { logFailure } from '../../logging/failure-log.js';
import { LOG_PREFIX } from '../../logging/log-prefix.js';

/** The guard keys (session and agent) whose compaction hooks are running in this async context. */
const hookScope = new AsyncLocalStorage<ReadonlySet<string>>();

/** True inside a compaction hook fired for `key`: the call must not wait for the turn that fired it. */
export function insideCompactionHook(key: string): boolean {
  return hookScope.getStore()?.has(key) ?? false;
}

/** `Manual` for a compaction asked for with `requestCompaction`, `Auto` for every other. */
export function compactionTrigger(requested: boolean): ContextCompactionTrigger {
  return requested ? ContextCompactionTrigger.Manual : ContextCompactionTrigger.Auto;
}

/** One guard call's compaction hooks: `before` at most once, `after` only after `before`. */
export class CompactionHooks {
  private fired = false;
  private settled = false;

  /** Fires nothing when created inside a hook fired for the same `key`. */
  private readonly enabled: boolean;

  constructor(
    private readonly invocationContext: InvocationContext,
    private readonly trigger: ContextCompactionTrigger,
    private readonly logger: GuardLogger,
    private readonly key: string,
  ) {
    this.enabled = !insideCompactionHook(key);
  }

  /** Wraps a summarizer call so that `before` fires just before the first one. */
  wrap<A extends unknown[], R>(summarize: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
    return async (...args: A) => {
      await this.before();
      return summarize(...args);
    };
  }

  /** Fires `after` (and `before` first if no summarizer ran) when a compaction started or happened. */
  async settle(compacted: boolean): Promise<void> {
    if (this.settled || (!compacted && !this.fired)) return;
    this.settled = true;
    await this.before();
    await this.fire('afterContextCompaction');
  }

  private async before(): Promise<void> {
    if (this.fired) return;
    this.fired = true;
    await this.fire('beforeContextCompaction');
  }

  private async fire(hook: 'beforeContextCompaction' | 'afterContextCompaction'): Promise<void> {
    const manager = this.invocationContext.pluginManager;
    if (!manager || !this.enabled) return;
    const params = { invocationContext: this.invocationContext, trigger: this.trigger };
    const scope = new Set([...(hookScope.getStore() ?? []), this.key]);
    try {
      await hookScope.run(scope, () =>
        hook === 'beforeContextCompaction'
          ? manager.runBeforeContextCompaction(params)
          : manager.runAfterContextCompaction(params),
      );
    } catch (error) {
      logFailure(
        this.logger,
        'error',
        `${LOG_PREFIX} a plugin failed in ${hook}; ignored, the compaction stands.`,
        error,
      );
    }
  }
}
