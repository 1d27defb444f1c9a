/**
 * When a maximum a provider stated in one session becomes the window of every session of its app.
 *
 * A stated maximum is read from the error's text (estimate/calibration.ts), and a proxy's text may
 * carry what a user wrote: one user's content could then set the window of every tenant on that
 * model, who would all compact early. @google/genai's ApiError and ADK's error event carry no
 * structured maximum (only the HTTP status and the error's code and message), so no field content
 * cannot write confirms it. A statement therefore holds for the user (app + user) whose session it
 * came from, and becomes the window of its app's sessions only when a rejection in a session of another user
 * of that app states the same maximum: a provider states its fixed maximum word for word, while one user's content
 * cannot write another user's error. Pure functions over plain data; the shell holds the maps
 * (adk/runtime/model-window-resolver.ts).
 */
import { dropOldest } from '../collections/bounded-map.js';

/** Users whose statements are kept per model; past it the oldest is dropped (its sessions keep the window in state). */
export const MAX_STATING_USERS = 1_024;

/** Models whose statements are kept; past it the model stated least recently is dropped. */
export const MAX_STATED_MODELS = 256;

/** One model's statements: the maximum each user's rejections last stated, least recent first. */
export type ModelStatements = ReadonlyMap<string, number>;

/**
 * The app of a user key (`[app, userId]` as JSON, adk/runtime/session-scope.ts `userOfContext`): a confirmed window
 * holds for that app's sessions only. One tenant's provider account, tier or proxy may cap a model below what another
 * tenant's reaches, and two users of one tenant would otherwise set every tenant's window (the thirty-ninth outside
 * trial: another app held to 3,000 tokens of a 1M model until restart, with no word).
 */
export function appOfUser(user: string): string {
  try {
    const parsed: unknown = JSON.parse(user);
    return Array.isArray(parsed) ? JSON.stringify(parsed[0]) : user;
  } catch {
    return user;
  }
}

/** Whether `window`, stated for `user`, is confirmed: a rejection of another user of the same app stated it. */
export function confirmedBy(statements: ModelStatements | undefined, user: string, window: number): boolean {
  const app = appOfUser(user);
  for (const [other, stated] of statements ?? [])
    if (other !== user && stated === window && appOfUser(other) === app) return true;
  return false;
}

/** The statements after `user` stated `window`: that user's latest last, the least recent dropped past `cap`. */
export function withStatement(
  statements: ModelStatements | undefined,
  user: string,
  window: number,
  cap: number = MAX_STATING_USERS,
): ModelStatements {
  const next = new Map(statements ?? []);
  next.delete(user);
  next.set(user, window);
  dropOldest(next, cap);
  return next;
}
