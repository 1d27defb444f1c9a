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
/** Calls of an agent that never came back to the guard, with none that did, after which it says responses do not reach it. */
const UNSEEN_CALLS = 10;
/** Sessions and agents whose call in flight is remembered at most. */
const MAX_IN_FLIGHT = 10_000;
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

  /** Calls that never came back to the guard and responses seen, by app and agent name, in this process. */
  private readonly tallies = new BoundedMap<string, { unseen: number; seen: number }>(MAX_TALLIED);
  /** The session and agent's guarded call whose response has not reached the guard yet. */
  private readonly inFlight = new BoundedMap<string, true>(MAX_IN_FLIGHT);

  /** The call of this context returned: an answer or an error. */
  returned(context: Context): void {
    const key = keyOf(context);
    this.waiting.take(key)?.release();
    this.inFlight.take(key);
    this.tallyOf(context).seen++;
  }

  /**
   * The session and agent call the model again: an earlier call still awaited has returned unseen, and is released.
   * `true` once `UNSEEN_CALLS` calls of the agent were followed by the next call of their session with no response
   * having reached the guard, and none ever did (another plugin or callback answers before it). Only a call whose
   * session calls again counts: many sessions' first calls in flight at once are not unseen (trial 23), nor is one
   * turn of a session running beside another, once any response came back (review 16).
   */
  nextCall(context: Context, asPlugin: boolean): boolean {
    const key = keyOf(context);
    this.waiting.take(key)?.release();
    // Attached to an agent (no plugins run), a thrown error reaches no guard callback (ADK runs onModelError for
    // plugins only): not counted there (review 17: a failing model made the warning blame another plugin).
    if (!asPlugin) return false;
    const unseen = this.inFlight.take(key) !== undefined;
    this.inFlight.set(key, true);
    const tally = this.tallyOf(context);
    if (unseen) tally.unseen++;
    return tally.unseen >= UNSEEN_CALLS && tally.seen === 0;
  }

  /** Two apps in one process may each have an agent of one name, one of them behind a plugin that answers first. */
  private tallyOf(context: Context): { unseen: number; seen: number } {
    const key = JSON.stringify([context.invocationContext.appName, context.agentName]);
    const known = this.tallies.get(key);
    if (known) return known;
    const tally = { unseen: 0, seen: 0 };
    this.tallies.set(key, tally);
    return tally;
  }
}
