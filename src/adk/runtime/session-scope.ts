/**
 * What identifies a session for the guard's per-process work: ADK's own
 * identity, app + user + session id. Both session services accept the same
 * session id for two users or two apps, so a session id alone would let one
 * user's queued summary or measures reach another's request.
 */
import type { Context } from '@google/adk';
import { currentCaller } from './agent-tool-caller.js';

/** A session as ADK names it: a `Session` (`id`) or the `{ appName, userId, sessionId }` of `getSession`. */
export type SessionRef =
  | { readonly appName: string; readonly userId: string; readonly id: string }
  | { readonly appName: string; readonly userId: string; readonly sessionId: string };

/**
 * The key of one session. It starts with the session id so that every user's
 * and app's session of that id shares a prefix (see `sessionIdPrefix`).
 * JSON keeps ids with any characters apart. `appName` is a list for an
 * `AgentTool` child's session: the calling apps, then the child's.
 */
export function sessionScopeKey(appName: string | readonly string[], userId: string, sessionId: string): string {
  return JSON.stringify([sessionId, appName, userId]);
}

/** The prefix shared by the keys of every session with this id, whatever its app or user. */
export function sessionIdPrefix(sessionId: string): string {
  return `${JSON.stringify([sessionId]).slice(0, -1)},`;
}

export function scopeOfRef(session: SessionRef): string {
  return sessionScopeKey(session.appName, session.userId, 'id' in session ? session.id : session.sessionId);
}

/**
 * The scope of a guarded call. ADK names an `AgentTool` child's session after the child, with
 * the caller's user and session id, so two apps calling one child would share a scope: inside
 * an app's `AgentTool` call the calling apps are part of it.
 */
export function scopeOfContext(context: Context): string {
  const appName = context.invocationContext.appName;
  const callers = currentCaller()?.appPath;
  return sessionScopeKey(callers ? [...callers, appName] : appName, context.userId, context.sessionId);
}

/**
 * The user a guarded call acts for: its app (the outermost calling app inside an `AgentTool` call, whose
 * user the child's session carries) and user id. What one session's content teaches the process is held
 * for this user until another user confirms it (usage/window-statements.ts).
 */
export function userOfContext(context: Context): string {
  const appName = currentCaller()?.appPath[0] ?? context.invocationContext.appName;
  return JSON.stringify([appName, context.userId]);
}

/** One model call of a session: its scope, invocation and agent (an agent's calls within an invocation follow each other). */
export function callScopeOfContext(context: Context): string {
  return `${scopeOfContext(context)}\u0000${context.invocationId}\u0000${context.agentName}`;
}
