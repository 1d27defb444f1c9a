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
 */
import { ContextCompactionTrigger, type InvocationContext } from '@google/adk';
import type { GuardLogger } from '../options.js';

const LOG_PREFIX = '[context_guard]';

/** `Manual` for a compaction asked for with `requestCompaction`, `Auto` for every other. */
export function compactionTrigger(requested: boolean): ContextCompactionTrigger {
  return requested ? ContextCompactionTrigger.Manual : ContextCompactionTrigger.Auto;
}

/** One guard call's compaction hooks: `before` at most once, `after` only after `before`. */
export class CompactionHooks {
  private fired = false;
  private settled = false;

  constructor(
    private readonly invocationContext: InvocationContext,
    private readonly trigger: ContextCompactionTrigger,
    private readonly logger: GuardLogger,
  ) {}

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
    if (!manager) return;
    const params = { invocationContext: this.invocationContext, trigger: this.trigger };
    try {
      if (hook === 'beforeContextCompaction') await manager.runBeforeContextCompaction(params);
      else await manager.runAfterContextCompaction(params);
    } catch (error) {
      this.logger.error(`${LOG_PREFIX} a plugin failed in ${hook}; ignored, the compaction stands.`, error);
    }
  }
}
