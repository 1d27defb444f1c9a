/** The process's unhandled rejections, collected while each test of the enclosing `describe` runs. */
import { afterEach, beforeEach } from 'vitest';

export function collectUnhandledRejections(): unknown[] {
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown): void => void rejections.push(reason);
  beforeEach(() => process.on('unhandledRejection', onRejection));
  afterEach(() => process.off('unhandledRejection', onRejection));
  return rejections;
}
