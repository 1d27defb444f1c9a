/**
 * A `GuardLogger` that keeps every line, for tests that assert what the guard
 * logged (an over-limit warning, a discarded watermark) and what it did not
 * (conversation text at the default level).
 */
import { inspect } from 'node:util';
import type { GuardLogger } from '../../src/internal.js';

export type LogLevelName = 'debug' | 'info' | 'warn' | 'error';

export interface LogLine {
  readonly level: LogLevelName;
  /** Every argument rendered as text (errors with their message and stack). */
  readonly message: string;
}

export interface CapturingLogger extends GuardLogger {
  readonly lines: LogLine[];
  /** Lines at `level` or above. */
  atOrAbove(level: LogLevelName): LogLine[];
  /** Lines whose message contains `text`. */
  matching(text: string | RegExp): LogLine[];
}

const RANK: Record<LogLevelName, number> = { debug: 0, info: 1, warn: 2, error: 3 };

function render(args: readonly unknown[]): string {
  return args
    .map((arg) => (typeof arg === 'string' ? arg : inspect(arg, { depth: 6, breakLength: Infinity })))
    .join(' ');
}

/** The guard's warning when a request stays over the hard limit after every reduction. */
export const OVER_LIMIT_WARNING = /over the hard limit/;

/** `onLine` sees each line as it is logged (a timeline, for example). */
export function capturingLogger(onLine?: (line: LogLine) => void): CapturingLogger {
  const lines: LogLine[] = [];
  const push =
    (level: LogLevelName) =>
    (...args: unknown[]): void => {
      const line = { level, message: render(args) };
      lines.push(line);
      onLine?.(line);
    };
  return {
    lines,
    debug: push('debug'),
    info: push('info'),
    warn: push('warn'),
    error: push('error'),
    atOrAbove: (level) => lines.filter((line) => RANK[line.level] >= RANK[level]),
    matching: (text) =>
      lines.filter((line) => (typeof text === 'string' ? line.message.includes(text) : text.test(line.message))),
  };
}
