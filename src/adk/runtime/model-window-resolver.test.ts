import { describe, expect, it } from 'vitest';
import { testPolicy, usageRecord } from '../../../test/support/builders.js';
import { pinCapFor } from '../../memory/fit-pins.js';
import { DEFAULT_CONTEXT_WINDOW } from '../../estimate/model-registry.js';
import { encodeRecord } from '../../state/codec.js';
import { stateKeysFor } from '../../state/keys.js';
import { ModelWindowResolver } from './model-window-resolver.js';

const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

describe('ModelWindowResolver.pinCap', () => {
  const keys = stateKeysFor('worker');
  const state: Record<string, unknown> = { [keys.usage]: encodeRecord(usageRecord({ window: 64_000 })) };

  it("should take the request's window without reading state (no copy of the session's state per call)", () => {
    const read: string[] = [];
    const cap = new ModelWindowResolver({}, quiet).pinCap(
      testPolicy(),
      'worker',
      (key) => (read.push(key), state[key]),
      200_000,
    );
    expect(cap).toBe(pinCapFor(200_000, undefined));
    expect(read).toEqual([]);
  });

  it('should take the window the usage record last saw without one, then the configured or assumed one', () => {
    const resolver = new ModelWindowResolver({}, quiet);
    expect(resolver.pinCap(testPolicy(), 'worker', (key) => state[key])).toBe(pinCapFor(64_000, undefined));
    expect(resolver.pinCap(testPolicy({ contextWindow: 32_000 }), 'other', (key) => state[key])).toBe(
      pinCapFor(32_000, undefined),
    );
    expect(resolver.pinCap(testPolicy(), 'other', (key) => state[key])).toBe(
      pinCapFor(DEFAULT_CONTEXT_WINDOW, undefined),
    );
  });
});
