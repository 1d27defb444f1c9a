/**
 * When an agent's model call has returned, by session and agent: a summary prepared in the background starts then,
 * so the provider has cached the prefix it reads (the request that call sent). A call whose answer never reaches the
 * guard's after-model callback (another plugin answered it first, or it was aborted) releases its waiter at the
 * session and agent's next guarded call, or after `MAX_WAIT_MS` (the twentieth outside trial: a moderation plugin
 * registered before the guard left a turn waiting the whole two minutes at the threshold, and a script exited in it).
 */
import type { Context } from '@google/adk';
import { scopeOfContext } from './session-scope.js';
import { BoundedMap } from '../../collections/bounded-map.js';

/** Longest a preparation waits for its call: a model call longer than this has likely failed unseen. */
const MAX_WAIT_MS = 120_000;
/** Calls awaited at most; the oldest are released first. */
const MAX_WAITING = 1_000;
/** Guarded calls of an agent with no response seen after which the guard says responses do not reach it. */
const UNSEEN_CALLS = 10;
/** Agents whose calls and responses are tallied at most. */
const MAX_TALLIED = 1_000;

interface Waiter {
  readonly release: () => void;
}

/** The session (app, user, id) and agent of a call: its calls follow each other, as the guard's queue runs them. */
const keyOf = (context: Context): string => `${scopeOfContext(context)}\u0000${context.agentName}`;

export class CallReturns {
  /** A waiter dropped past the cap is released: its preparation starts without waiting longer. */
  private readonly waiting = new BoundedMap<string, Waiter>(MAX_WAITING, (_key, waiter) => waiter.release());

  /** Resolves once the model call this context is making has returned (or is given up on). */
  after(context: Context): Promise<void> {
    const key = keyOf(context);
    this.waiting.take(key)?.release();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.waiting.take(key)?.release(), MAX_WAIT_MS);
      timer.unref?.();
      this.waiting.set(key, {
        release: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  /** Guarded calls and responses seen, by app and agent name, in this process. */
  private readonly tallies = new BoundedMap<string, { calls: number; seen: number }>(MAX_TALLIED);

  /** The call of this context returned: an answer or an error. */
  returned(context: Context): void {
    this.waiting.take(keyOf(context))?.release();
    this.tallyOf(context).seen++;
  }

  /**
   * The session and agent call the model again: an earlier call still awaited has returned unseen, and is released.
   * `true` once the agent has made `UNSEEN_CALLS` guarded calls in this process and no response reached the guard
   * (another plugin or callback answers before it): not a turn of the session running beside this one (review 16).
   */
  nextCall(context: Context, asPlugin: boolean): boolean {
    this.waiting.take(keyOf(context))?.release();
    // Attached to an agent (no plugins run), a thrown error reaches no guard callback (ADK runs onModelError for
    // plugins only): not counted there (review 17: a failing model made the warning blame another plugin).
    if (!asPlugin) return false;
    const tally = this.tallyOf(context);
    tally.calls++;
    return tally.calls >= UNSEEN_CALLS && tally.seen === 0;
  }

  /** Two apps in one process may each have an agent of one name, one of them behind a plugin that answers first. */
  private tallyOf(context: Context): { calls: number; seen: number } {
    const key = JSON.stringify([context.invocationContext.appName, context.agentName]);
    const known = this.tallies.get(key);
    if (known) return known;
    const tally = { calls: 0, seen: 0 };
    this.tallies.set(key, tally);
    return tally;
  }
}
