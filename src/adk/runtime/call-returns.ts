/**
 * When an agent's model call has returned, by session, invocation and agent: a summary prepared in
 * the background starts then, so the provider has cached the prefix it reads (the request that
 * call sent). A call whose answer never reaches the plugin (another plugin answered it, it was
 * aborted) releases its waiter on the same key's next call, or after `MAX_WAIT_MS`.
 */
import type { Context } from '@google/adk';
import { callScopeOfContext } from './session-scope.js';
import { BoundedMap } from '../../collections/bounded-map.js';

/** Longest a preparation waits for its call: a model call longer than this has likely failed unseen. */
const MAX_WAIT_MS = 120_000;
/** Calls awaited at most; the oldest are released first. */
const MAX_WAITING = 1_000;

export class CallReturns {
  /** A waiter dropped past the cap is released: its preparation starts without waiting longer. */
  private readonly waiting = new BoundedMap<string, () => void>(MAX_WAITING, (_key, resolve) => resolve());

  /** Resolves once the model call this context is making has returned (or is given up on). */
  after(context: Context): Promise<void> {
    const key = callScopeOfContext(context);
    this.release(key);
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.release(key), MAX_WAIT_MS);
      timer.unref?.();
      this.waiting.set(key, () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** The call of this context returned: an answer or an error. */
  returned(context: Context): void {
    this.release(callScopeOfContext(context));
  }

  private release(key: string): void {
    this.waiting.take(key)?.();
  }
}
