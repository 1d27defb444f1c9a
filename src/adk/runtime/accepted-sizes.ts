/**
 * The largest request each model accepted in this process, by normalised model name and user (app + user): a user's
 * sessions believe no window below their own. Tenants may reach one model name through accounts of other limits:
 * another user's larger requests kept a tenant's sessions from learning a smaller window (the twenty-first outside
 * trial: 10 rejections in 20 turns instead of 1). The largest over every user bounds what spreads to all of them.
 */
import type { AcceptedSize } from '../../usage/learned-window.js';
import { BoundedMap } from '../../collections/bounded-map.js';

/** Model and user pairs kept at most; the oldest are dropped first. */
const MAX_ACCEPTED_USERS = 10_000;

/** The larger of two accepted sizes, figure by figure. */
function largerOf(before: AcceptedSize | undefined, size: AcceptedSize): AcceptedSize {
  return {
    tokens: Math.max(before?.tokens ?? 0, size.tokens ?? 0) || undefined,
    estimate: Math.max(before?.estimate ?? 0, size.estimate ?? 0) || undefined,
  };
}

export class AcceptedSizes {
  private readonly byUser = new BoundedMap<string, AcceptedSize>(MAX_ACCEPTED_USERS);
  private readonly anywhere = new Map<string, AcceptedSize>();

  /** `model` (normalised) accepted a request of this size for `user` (either figure may be missing). */
  accept(model: string, size: AcceptedSize, user: string): void {
    const key = `${model}\u0000${user}`;
    this.byUser.set(key, largerOf(this.byUser.get(key), size));
    this.anywhere.set(model, largerOf(this.anywhere.get(model), size));
  }

  /** The largest request `model` (normalised) accepted for `user`. */
  forUser(model: string, user: string): AcceptedSize | undefined {
    return this.byUser.get(`${model}\u0000${user}`);
  }

  /** The largest request `model` (normalised) accepted for any user. */
  forAnyUser(model: string): AcceptedSize | undefined {
    return this.anywhere.get(model);
  }
}
