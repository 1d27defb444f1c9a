/**
 * The one rule for logging a failure: an error's message can quote the conversation (a
 * provider's 400 quoting the prompt, a storage error quoting its payload, `JSON.parse`
 * quoting its input), so above debug level only a fixed description and the error's kind
 * (class name and code, when they look like identifiers) are logged; the error itself,
 * message and stack, goes to debug.
 */

/**
 * A logger with the level a failure is logged at (`warn` or `error`), and `debug` for the detail;
 * a `GuardLogger` or `console` is one.
 */
export type FailureLogger<Level extends 'warn' | 'error'> = Record<Level | 'debug', (...args: unknown[]) => void>;

/** A class name shown above debug: an identifier (it comes from code, not data). */
const CLASS_NAME = /^[A-Za-z_$][\w$]{0,59}$/;
/** A code shown above debug: a constant such as `ENOENT` or `ERR_STREAM_DESTROYED`, or a number. */
const CODE = /^[A-Z][A-Z0-9_]{0,39}$/;

/**
 * The kind of `error` for a log line above debug: `TypeError`, `Error (code ENOENT)`,
 * `a thrown string`. Built from its class (the constructor's name, not `error.name`, which
 * any data can set) and its `code` when that is a constant or a number; never the message.
 */
export function errorKind(error: unknown): string {
  if (error === null || error === undefined) return `a thrown ${String(error)}`;
  if (typeof error !== 'object') return `a thrown ${typeof error}`;
  const name: unknown = (error as { constructor?: { name?: unknown } }).constructor?.name;
  const className = typeof name === 'string' && CLASS_NAME.test(name) ? name : 'Error';
  const code: unknown = (error as { code?: unknown }).code;
  const shownCode =
    (typeof code === 'string' && CODE.test(code)) || (typeof code === 'number' && Number.isFinite(code))
      ? ` (code ${String(code)})`
      : '';
  return `${className}${shownCode}`;
}

/**
 * Logs `message` at `level` with the kind of `error`, and the whole error at debug. Use it
 * wherever a caught error is logged: `message` must be fixed text (names of agents and tools,
 * counts), never conversation text.
 */
export function logFailure<Level extends 'warn' | 'error'>(
  logger: FailureLogger<Level>,
  level: Level,
  message: string,
  error: unknown,
): void {
  logger[level](`${message} (${errorKind(error)}; details at debug level)`);
  logger.debug(`${message} Details:`, error);
}
