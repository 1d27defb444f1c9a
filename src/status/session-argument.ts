/**
 * What the guard's public session methods (`status`, `pin`, `requestCompaction`,
 * `forgetSession`) accept as a session, checked before they read it: a wrong argument (a session
 * id where the session object belongs, `undefined` from a failed `getSession`) gets a message
 * naming what was expected instead of a `TypeError` from deep inside the package. Messages name
 * the kind of value received, never the value: it may be a user's id or conversation data.
 */

/** What every message says is expected. */
export const SESSION_EXPECTED =
  "a session object as ADK returns it (sessionService.getSession() or a context's session), with its state";

type Problem = string | undefined;

/** The kind of `value`, for a message that must not quote it. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return 'a string (a session id? pass the session object)';
  if (value === undefined) return 'undefined';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Why `value` is not a session whose state can be read, or undefined when it is one. */
export function sessionStateProblem(value: unknown): Problem {
  if (!isRecord(value)) return `got ${kindOf(value)}`;
  if (!isRecord(value['state'])) return `got an object whose state is ${kindOf(value['state'])}`;
  return undefined;
}

/** Why `value` does not name a session (`{ appName, userId, id }` or `sessionId`), or undefined. */
export function sessionRefProblem(value: unknown): Problem {
  if (!isRecord(value)) return `got ${kindOf(value)}`;
  const id = 'id' in value ? value['id'] : value['sessionId'];
  const missing: string[] = ['appName', 'userId'].filter((key) => typeof value[key] !== 'string');
  if (typeof id !== 'string') missing.push('id');
  return missing.length > 0 ? `got an object without a string ${missing.join(', ')}` : undefined;
}

/** Why `params` is not `{ sessionService, session }` with a stored session to write to, or undefined. */
export function storedSessionProblem(params: unknown): Problem {
  if (!isRecord(params)) return `got ${kindOf(params)} instead of { sessionService, session }`;
  const service = params['sessionService'];
  if (!isRecord(service) || typeof service['appendEvent'] !== 'function') {
    return `got a sessionService that is ${kindOf(service)}, not a session service`;
  }
  const session = params['session'];
  const problem = sessionStateProblem(session) ?? sessionRefProblem(session);
  return problem === undefined ? undefined : `session: ${problem}`;
}
