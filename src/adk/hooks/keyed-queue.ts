/**
 * Calls for the same session and agent run one at a time, so two concurrent
 * requests never both summarize the same history: the second waits and reuses
 * the first one's summary (validated by its anchor like any stored summary).
 * Entries exist only while calls are queued; nothing here outlives them.
 */
import type { SummaryRecord } from '../../summary/stored-summary.js';
import { insideCompactionHook } from './compaction-hooks.js';

export class KeyedQueue {
  private readonly queues = new Map<string, Promise<void>>();
  private readonly summaries = new Map<string, SummaryRecord>();

  /** Runs `task` after every earlier task of `key`. */
  async run(key: string, task: () => Promise<void>): Promise<void> {
    // A call made by another plugin's compaction hook would wait for the turn that fired the hook.
    if (insideCompactionHook(key)) return task();
    const previous = this.queues.get(key) ?? Promise.resolve();
    let release: () => void = () => undefined;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.queues.set(key, tail);
    await previous;
    try {
      await task();
    } finally {
      release();
      if (this.queues.get(key) === tail) {
        this.queues.delete(key);
        this.summaries.delete(key);
      }
    }
  }

  /** The summary written by an earlier call of the queue, if any. */
  sharedSummary(key: string): SummaryRecord | undefined {
    return this.summaries.get(key);
  }

  /** Offers a new summary to the calls queued behind this one; dropped when the queue empties. */
  share(key: string, summary: SummaryRecord): void {
    this.summaries.set(key, summary);
  }
}
