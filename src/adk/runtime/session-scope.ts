/**
 * What identifies a session for the guard's per-process work: ADK's own
 * identity, app + user + session id. Both session services accept the same
 * session id for two users or two apps, so a session id alone would let one
 * user's queued summary or measures reach another's request.
 */
import type { Context, Event, InvocationContext } from '@google/adk';
import { currentCaller, type AgentToolCaller } from './agent-tool-caller.js';

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
  // The user before the apps, so that a prefix names one user's AgentTool children (`childScopePrefix`).
  return JSON.stringify([sessionId, userId, appName]);
}

/** The prefix shared by the keys of every session with this id, whatever its app or user. */
export function sessionIdPrefix(sessionId: string): string {
  return `${JSON.stringify([sessionId]).slice(0, -1)},`;
}

/**
 * The prefix of the keys of the `AgentTool` children one user's session of an app called (their scope lists the
 * calling apps first, then the child's: `sessionScopeKey`), at any depth, and of no other user's (review 40: a prefix
 * without the user released every user's children of a session id an app reuses).
 */
export function childScopePrefix(session: SessionRef): string {
  return `${JSON.stringify([sessionIdOf(session), session.userId, [session.appName]]).slice(0, -2)},`;
}

function sessionIdOf(session: SessionRef): string {
  return 'id' in session ? session.id : session.sessionId;
}

export function scopeOfRef(session: SessionRef): string {
  return sessionScopeKey(session.appName, session.userId, sessionIdOf(session));
}

/** An invocation's keys, with what they were made of: its app, user and session, and the `AgentTool` caller. */
interface InvocationKeys {
  readonly caller: AgentToolCaller | undefined;
  readonly appName: string;
  readonly userId: string;
  readonly sessionId: string;
  readonly scope: string;
  readonly user: string;
}

/**
 * By invocation, weakly: a call reads its scope several times (its queue, its pending records, its user's
 * windows), each a JSON text. Made again whenever what they are made of is not the same as then.
 */
const invocationKeys = new WeakMap<object, InvocationKeys>();

function keysOf(context: Context): InvocationKeys {
  return keysOfInvocation(context.invocationContext);
}

function keysOfInvocation(invocation: InvocationContext): InvocationKeys {
  const caller = currentCaller();
  const appName = invocation.appName;
  const userId = invocation.userId;
  const sessionId = invocation.session.id;
  const known = invocationKeys.get(invocation);
  if (
    known !== undefined &&
    known.caller === caller &&
    known.appName === appName &&
    known.userId === userId &&
    known.sessionId === sessionId
  )
    return known;
  const callers = caller?.appPath;
  const keys = {
    caller,
    appName,
    userId,
    sessionId,
    scope: sessionScopeKey(callers ? [...callers, appName] : appName, userId, sessionId),
    user: JSON.stringify([callers?.[0] ?? appName, userId]),
  };
  invocationKeys.set(invocation, keys);
  return keys;
}

/**
 * The scope of a guarded call. ADK names an `AgentTool` child's session after the child, with
 * the caller's user and session id, so two apps calling one child would share a scope: inside
 * an app's `AgentTool` call the calling apps are part of it.
 */
export function scopeOfContext(context: Context): string {
  return keysOf(context).scope;
}

/**
 * The user a guarded call acts for: its app (the outermost calling app inside an `AgentTool` call, whose
 * user the child's session carries) and user id. What one session's content teaches the process is held
 * for this user until another user confirms it (usage/window-statements.ts).
 */
export function userOfContext(context: Context): string {
  return keysOf(context).user;
}

/** One model call of a session: its scope, invocation and agent (an agent's calls within an invocation follow each other). */
export function callScopeOfContext(context: Context): string {
  return callScope(scopeOfContext(context), context.invocationId, context.agentName);
}

/** The model call an event of `invocation` answers: the agent that wrote it, in its invocation. */
export function callScopeOfEvent(invocation: InvocationContext, event: Pick<Event, 'invocationId' | 'author'>): string {
  return callScope(keysOfInvocation(invocation).scope, event.invocationId, event.author ?? '');
}

function callScope(scope: string, invocationId: string, agentName: string): string {
  return `${scope}\u0000${invocationId}\u0000${agentName}`;
}
