/**
 * The unhandled promise rejections raised while each test of a `describe` block runs: for code
 * that starts work it does not await (a summary prepared in the background) and must never leave
 * a rejection unhandled.
 */
import { afterEach, beforeEach } from 'vitest';

/** Registers the hooks; call it inside a `describe`. The array fills as rejections occur. */
export function collectUnhandledRejections(): readonly unknown[] {
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown): void => void rejections.push(reason);
  beforeEach(() => process.on('unhandledRejection', onRejection));
  afterEach(() => process.off('unhandledRejection', onRejection));
  return rejections;
}
