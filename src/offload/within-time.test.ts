import { describe, expect, it } from 'vitest';
import { withinTime } from './within-time.js';

describe('withinTime', () => {
  it('should give the value of a call that answers in time', async () => {
    expect(await withinTime(() => Promise.resolve(7), 1_000)).toEqual({ status: 'done', value: 7 });
  });

  it('should turn a rejection and a synchronous throw into a failure', async () => {
    const error = new Error('down');
    expect(await withinTime(() => Promise.reject(error), 1_000)).toEqual({ status: 'failed', error });
    expect(
      await withinTime(() => {
        throw error;
      }, 1_000),
    ).toEqual({ status: 'failed', error });
  });

  it('should stop waiting for a call that never answers, at the bound', async () => {
    const started = Date.now();
    expect(await withinTime(() => new Promise<never>(() => {}), 50)).toEqual({ status: 'timeout' });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('should swallow the late rejection of a call it stopped waiting for', async () => {
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown): void => void rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      const late = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('late')), 30));
      expect(await withinTime(() => late, 5)).toEqual({ status: 'timeout' });
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(rejections).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  });
});
