/**
 * When a maximum a provider stated in one session becomes the window of every session of the process.
 *
 * A stated maximum is read from the error's text (estimate/calibration.ts), and a proxy's text may
 * carry what a user wrote: one user's content could then set the window of every tenant on that
 * model, who would all compact early. @google/genai's ApiError and ADK's error event carry no
 * structured maximum (only the HTTP status and the error's code and message), so no field content
 * cannot write confirms it. A statement therefore holds for the user (app + user) whose session it
 * came from, and becomes process-wide only when a rejection in a session of another user states
 * the same maximum: a provider states its fixed maximum word for word, while one user's content
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

/** Whether `window`, stated for `user`, is confirmed: another user's rejection stated the same maximum. */
export function confirmedBy(statements: ModelStatements | undefined, user: string, window: number): boolean {
  for (const [other, stated] of statements ?? []) if (other !== user && stated === window) return true;
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
