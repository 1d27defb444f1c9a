/**
 * A logger that keeps its lines instead of printing them: for tests that assert what the guard
 * logged (an over-limit warning, a discarded watermark) and what it did not (conversation text
 * at the default level), and for the simulator, which keeps ADK's and the guard's output off
 * its progress display. It is both a guard `logger` and an ADK `Logger` (for `setLogger`).
 */
import { inspect } from 'node:util';
import { LogLevel, type Logger } from '@google/adk';

export type LogLevelName = 'debug' | 'info' | 'warn' | 'error';

export interface LogLine {
  readonly level: LogLevelName;
  /** Every argument rendered as text (errors with their message and stack). */
  readonly message: string;
}

export interface CapturingLoggerOptions {
  /** Sees every line as it is logged, past `limit` too (a timeline, or a sink that streams lines out). */
  readonly onLine?: (line: LogLine) => void;
  /** Lines kept in `lines` at most; later ones are counted and passed to `onLine`, not kept. @default unbounded */
  readonly limit?: number;
}

const RANK: Record<LogLevelName, number> = { debug: 0, info: 1, warn: 2, error: 3 };
const ADK_LEVELS: ReadonlyMap<LogLevel, LogLevelName> = new Map([
  [LogLevel.DEBUG, 'debug'],
  [LogLevel.INFO, 'info'],
  [LogLevel.WARN, 'warn'],
  [LogLevel.ERROR, 'error'],
]);

function render(args: readonly unknown[]): string {
  return args
    .map((arg) => (typeof arg === 'string' ? arg : inspect(arg, { depth: 6, breakLength: Infinity })))
    .join(' ');
}

/** The guard's warning when a request stays over the hard limit after every reduction. */
export const OVER_LIMIT_WARNING = /over the hard limit/;

/** The guard's info line when a session's first message is sent whole on the estimate alone (design.md, "The first call"). */
export const SENT_WHOLE_NOTE = /the user's message is sent whole/;

export class CapturingLogger implements Logger {
  readonly lines: LogLine[] = [];
  /** Lines logged at each level, kept or not. */
  readonly counts: Record<LogLevelName, number> = { debug: 0, info: 0, warn: 0, error: 0 };

  constructor(private readonly options: CapturingLoggerOptions = {}) {}

  /** Lines at `level` or above. */
  atOrAbove(level: LogLevelName): LogLine[] {
    return this.lines.filter((line) => RANK[line.level] >= RANK[level]);
  }

  /** Lines whose message contains `text`. */
  matching(text: string | RegExp): LogLine[] {
    return this.lines.filter((line) =>
      typeof text === 'string' ? line.message.includes(text) : text.test(line.message),
    );
  }

  log(level: LogLevel, ...args: unknown[]): void {
    this.keep(ADK_LEVELS.get(level) ?? 'debug', args);
  }
  debug(...args: unknown[]): void {
    this.keep('debug', args);
  }
  info(...args: unknown[]): void {
    this.keep('info', args);
  }
  warn(...args: unknown[]): void {
    this.keep('warn', args);
  }
  error(...args: unknown[]): void {
    this.keep('error', args);
  }
  setLogLevel(): void {
    // Every line is kept; a level only matters to a logger that prints.
  }

  private keep(level: LogLevelName, args: readonly unknown[]): void {
    this.counts[level]++;
    const kept = this.lines.length < (this.options.limit ?? Infinity);
    if (!kept && !this.options.onLine) return;
    const line = { level, message: render(args) };
    if (kept) this.lines.push(line);
    // Every line, kept or not: a sink that streams lines out keeps none (the forty-fourth outside trial lost all but one).
    this.options.onLine?.(line);
  }
}
