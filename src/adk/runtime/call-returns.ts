/**
 * When an agent's model call has returned, by session, invocation and agent: a summary prepared in
 * the background starts then, so the provider has cached the prefix it reads (the request that
 * call sent). A call whose answer never reaches the plugin (another plugin answered it, it was
 * aborted) releases its waiter on the same key's next call, or after `MAX_WAIT_MS`.
 */
import type { Context } from '@google/adk';
import { scopeOfContext } from './session-scope.js';

/** Longest a preparation waits for its call: a model call longer than this has likely failed unseen. */
const MAX_WAIT_MS = 120_000;
/** Calls awaited at most; the oldest are released first. */
const MAX_WAITING = 1_000;

export class CallReturns {
  private readonly waiting = new Map<string, () => void>();

  /** Resolves once the model call this context is making has returned (or is given up on). */
  after(context: Context): Promise<void> {
    const key = callKey(context);
    this.release(key);
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.release(key), MAX_WAIT_MS);
      timer.unref?.();
      this.waiting.set(key, () => {
        clearTimeout(timer);
        resolve();
      });
      while (this.waiting.size > MAX_WAITING) {
        const oldest = this.waiting.keys().next().value;
        if (oldest === undefined) break;
        this.release(oldest);
      }
    });
  }

  /** The call of this context returned: an answer or an error. */
  returned(context: Context): void {
    this.release(callKey(context));
  }

  private release(key: string): void {
    const resolve = this.waiting.get(key);
    this.waiting.delete(key);
    resolve?.();
  }
}

function callKey(context: Context): string {
  return `${scopeOfContext(context)}\u0000${context.invocationId}\u0000${context.agentName}`;
}
