/**
 * A logger that keeps lines instead of printing them, so the progress display
 * stays readable; used for ContextGuard's logger and, during a run, ADK's.
 */
import { LogLevel, type Logger } from '@google/adk';

export interface LogLine {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  readonly text: string;
}

const KEEP = 200;

function render(args: readonly unknown[]): string {
  return args
    .map((arg) => (arg instanceof Error ? arg.message : typeof arg === 'string' ? arg : String(arg)))
    .join(' ');
}

export class CollectingLogger implements Logger {
  readonly lines: LogLine[] = [];
  readonly counts = { debug: 0, info: 0, warn: 0, error: 0 };

  private keep(level: LogLine['level'], args: readonly unknown[]): void {
    this.counts[level]++;
    if (level !== 'debug' && this.lines.length < KEEP) this.lines.push({ level, text: render(args) });
  }

  log(level: LogLevel, ...args: unknown[]): void {
    const name =
      level === LogLevel.ERROR
        ? 'error'
        : level === LogLevel.WARN
          ? 'warn'
          : level === LogLevel.INFO
            ? 'info'
            : 'debug';
    this.keep(name, args);
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
    // Everything is kept; the level only matters to printing loggers.
  }
}
