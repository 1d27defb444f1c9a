/**
 * Which conversation a log line belongs to. On a server of many sessions a line that names only the agent
 * ("compacted contents 0..114") cannot be traced (the twenty-seventh outside trial): the guard's callbacks run
 * their work inside the session's scope (`inSessionLog`), and the guard's logger puts the session and
 * invocation ids and the app's name after the prefix of each line logged there, background work started there
 * included. Ids and the app only: never the user id or any conversation text.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { LOG_PREFIX } from './log-prefix.js';

/** Where a callback's work belongs, as ADK's contexts give it. */
interface SessionScope {
  readonly invocationContext?: {
    readonly invocationId?: string;
    readonly session?: { readonly id?: string; readonly appName?: string } | undefined;
  };
}

const scope = new AsyncLocalStorage<string>();

/** The apps whose `AgentTool` calls are running the current work, outermost first (set by adk/runtime/agent-tool-caller.ts). */
let callerApps: () => readonly string[] | undefined = () => undefined;

/** Where the log tag reads the apps calling an `AgentTool` child: a child's session is named after the child. */
export function readCallerAppsWith(read: () => readonly string[] | undefined): void {
  callerApps = read;
}

/** Runs `work` with the guard's log lines tagged by the session and invocation of `context`. */
export function inSessionLog<T>(context: SessionScope | undefined, work: () => T): T {
  const invocation = context?.invocationContext;
  const session = invocation?.session?.id;
  if (typeof session !== 'string') return work();
  const app = invocation?.session?.appName;
  const tag = [
    `session ${session}`,
    ...(typeof invocation?.invocationId === 'string' ? [`invocation ${invocation.invocationId}`] : []),
    // The app too: one guard serving several apps (tenants) is filtered by it (the forty-fourth outside trial); an
    // AgentTool child's session is named after the child, so the apps that called it come first (review 36).
    ...(typeof app === 'string' ? [`app ${[...(callerApps() ?? []), app].join(' > ')}`] : []),
  ].join(', ');
  return scope.run(tag, work);
}

function tagged(args: unknown[]): unknown[] {
  const tag = scope.getStore();
  const [first, ...rest] = args;
  if (tag === undefined || typeof first !== 'string' || !first.startsWith(LOG_PREFIX)) return args;
  return [`${LOG_PREFIX} [${tag}]${first.slice(LOG_PREFIX.length)}`, ...rest];
}

type LogMethod = (...args: unknown[]) => void;
const LEVELS = ['debug', 'info', 'warn', 'error'] as const;
type Level = (typeof LEVELS)[number];

/** `logger` with the ids of the session scope it is called in after the guard's prefix (each level it has). */
export function sessionLogger<L extends Partial<Record<Level, LogMethod>>>(
  logger: L,
): Pick<L, Extract<keyof L, Level>> {
  const wrapped: Partial<Record<Level, LogMethod>> = {};
  for (const level of LEVELS) {
    const method = logger[level];
    if (typeof method === 'function') wrapped[level] = (...args) => method.apply(logger, tagged(args));
  }
  return wrapped as Pick<L, Extract<keyof L, Level>>;
}
