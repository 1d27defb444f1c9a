/**
 * Warnings logged once per cause for the life of the process (bounded).
 */
import type { GuardLogger } from '../options.js';

/** Causes remembered before it starts afresh. */
const MAX_WARNED_CAUSES = 10_000;

export class WarnOnce {
  private readonly warned = new Set<string>();

  constructor(private readonly logger: GuardLogger) {}

  warn(cause: string, message: string): void {
    if (this.warned.has(cause)) return;
    if (this.warned.size >= MAX_WARNED_CAUSES) this.warned.clear();
    this.warned.add(cause);
    this.logger.warn(message);
  }
}
