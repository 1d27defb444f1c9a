import { describe, expect, it } from 'vitest';
import { collectUnhandledRejections } from '../../../test/support/unhandled-rejections.js';
import { CapturingLogger } from '../../testing/index.js';
import type { PreparationRequest } from '../../preparation/plan.js';
import type { NewSummary } from '../../summary/new-summary.js';
import { PreparedSummaries } from './prepared-summaries.js';

const REQUEST = {
  previous: undefined,
  watermark: { covered: 4, anchor: 'a|b' },
} as const satisfies Pick<PreparationRequest, 'previous' | 'watermark'>;
const request = REQUEST as unknown as PreparationRequest;

function preparedSummary(): NewSummary {
  return {
    record: { version: 1, text: 'summary', covered: 4, anchor: 'a|b', compactions: 1, fallback: false, createdAt: 1 },
    droppedFacts: [],
    droppedFactCount: 0,
    outcome: { ok: true, text: 'summary', truncated: false },
    droppedContents: 0,
  };
}

describe('PreparedSummaries', () => {
  const rejections = collectUnhandledRejections();

  it('should hand a settled summary over without a wait, and say when one is still being prepared', async () => {
    const store = new PreparedSummaries(new CapturingLogger());
    let finish: (value: NewSummary) => void = () => undefined;
    store.start('k', 'worker', request, () => new Promise((resolve) => (finish = resolve)));
    await Promise.resolve();
    expect(store.preparing('k')).toBe(true);
    finish(preparedSummary());
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(store.preparing('k')).toBe(false);
    expect(await store.get('k')?.take()).toEqual({ prepared: preparedSummary(), waitedMs: 0 });
  });

  it('should keep one entry per key, never answer another key, and forget a session by prefix', () => {
    const store = new PreparedSummaries(new CapturingLogger());
    store.start('app\u0000alice\u0000s1\u0000worker', 'worker', request, async () => preparedSummary());
    expect(store.get('app\u0000bob\u0000s1\u0000worker')).toBeUndefined();
    expect(store.get('app\u0000alice\u0000s1\u0000worker')).toBeDefined();
    store.forgetPrefix('app\u0000alice\u0000s1\u0000');
    expect(store.get('app\u0000alice\u0000s1\u0000worker')).toBeUndefined();
  });

  it('should turn a failing preparation into "none", logged, with no unhandled rejection', async () => {
    const logger = new CapturingLogger();
    const store = new PreparedSummaries(logger);
    store.start('k', 'worker', request, () => Promise.reject(new Error('boom')));
    store.start('sync', 'worker', request, () => {
      throw new Error('thrown before any promise');
    });
    expect(await store.get('k')?.take()).toMatchObject({ prepared: undefined });
    expect(await store.get('sync')?.take()).toMatchObject({ prepared: undefined });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(rejections).toEqual([]);
    expect(
      logger.atOrAbove('warn').filter((line) => line.message.includes('a background summary failed')),
    ).toHaveLength(2);
  });

  it('should be bounded, the least recently started going first', () => {
    const store = new PreparedSummaries(new CapturingLogger(), undefined, 2);
    for (const key of ['a', 'b', 'c']) store.start(key, 'worker', request, async () => preparedSummary());
    expect([store.get('a'), store.get('b'), store.get('c')].map((entry) => entry !== undefined)).toEqual([
      false,
      true,
      true,
    ]);
  });
});
