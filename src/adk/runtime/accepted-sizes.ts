/**
 * The largest request each model accepted in this process, by normalised model name and user (app + user): a user's
 * sessions believe no window below their own. Tenants may reach one model name through accounts of other limits:
 * another user's larger requests kept a tenant's sessions from learning a smaller window (the twenty-first outside
 * trial: 10 rejections in 20 turns instead of 1). The largest over an app's users bounds what spreads to that app's
 * sessions (another app's requests say nothing of this app's account: review 33).
 */
import type { AcceptedSize } from '../../usage/learned-window.js';
import { BoundedMap } from '../../collections/bounded-map.js';
import { appOfUser } from '../../usage/window-statements.js';

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
  private readonly byApp = new BoundedMap<string, AcceptedSize>(MAX_ACCEPTED_USERS);

  /** `model` (normalised) accepted a request of this size for `user` (either figure may be missing). */
  accept(model: string, size: AcceptedSize, user: string): void {
    const key = `${model}\u0000${user}`;
    this.byUser.set(key, largerOf(this.byUser.get(key), size));
    const app = `${model}\u0000${appOfUser(user)}`;
    this.byApp.set(app, largerOf(this.byApp.get(app), size));
  }

  /** The largest request `model` (normalised) accepted for `user`. */
  forUser(model: string, user: string): AcceptedSize | undefined {
    return this.byUser.get(`${model}\u0000${user}`);
  }

  /** The largest request `model` (normalised) accepted for any user of `user`'s app: what bounds a window it confirms. */
  forAppOf(model: string, user: string): AcceptedSize | undefined {
    return this.byApp.get(`${model}\u0000${appOfUser(user)}`);
  }
}
