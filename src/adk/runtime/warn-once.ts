/**
 * Warnings (and notices) logged once per cause for the life of the process (bounded).
 */
import type { GuardLogger } from '../../options.js';

/** Causes remembered before it starts afresh. */
const MAX_WARNED_CAUSES = 10_000;

export class WarnOnce {
  private readonly warned = new Set<string>();

  constructor(private readonly logger: GuardLogger) {}

  warn(cause: string, message: string): void {
    if (this.first(cause)) this.logger.warn(message);
  }

  /** The same, at info level: for a fact worth knowing once that needs no action. */
  inform(cause: string, message: string): void {
    if (this.first(cause)) this.logger.info(message);
  }

  private first(cause: string): boolean {
    if (this.warned.has(cause)) return false;
    if (this.warned.size >= MAX_WARNED_CAUSES) this.warned.clear();
    this.warned.add(cause);
    return true;
  }
}
