import { describe, expect, it } from 'vitest';
import { testPolicy, usageRecord } from '../../../test/support/builders.js';
import { pinCapFor } from '../../memory/fit-pins.js';
import { DEFAULT_CONTEXT_WINDOW } from '../../estimate/model-registry.js';
import { encodeRecord } from '../../state/codec.js';
import { stateKeysFor } from '../../state/keys.js';
import { ModelWindowResolver } from './model-window-resolver.js';
import { recordStatedWindow } from '../../usage/learned-window.js';

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

describe('ModelWindowResolver.learn, by route', () => {
  it("should keep a window learned for one route from another route's model of the same last name", () => {
    const resolver = new ModelWindowResolver({ modelWindows: { 'my-router/fast': 100_000 } }, quiet);
    // Two users' sessions state it (the name a rejection records, as model-error-event.ts passes it on): the maximum
    // holds for every session of that route, and a session's own record keeps it.
    const stated = recordStatedWindow(usageRecord({}), 'azure/fast', 14_000);
    const user = (id: string): string => JSON.stringify(['app', id]);
    expect(resolver.learn(stated.learnedWindowModel ?? '', 14_000, user('u1'))).toBe('user');
    expect(resolver.learn(stated.learnedWindowModel ?? '', 14_000, user('u2'))).toBe('process');
    const agent = { name: 'worker', user: user('u3') };
    expect(resolver.agentWindow(testPolicy(), 'azure/fast', usageRecord({}), agent).window).toBe(14_000);
    expect(resolver.agentWindow(testPolicy(), 'my-router/fast', usageRecord({}), agent).window).toBe(100_000);
    expect(resolver.agentWindow(testPolicy(), 'my-router/fast', stated, agent).window).toBe(100_000);
    expect(resolver.agentWindow(testPolicy(), 'models/fast', usageRecord({}), agent).window).not.toBe(14_000);
  });
});

describe('ModelWindowResolver.learn, by app', () => {
  const user = (app: string, id: string): string => JSON.stringify([app, id]);

  it("should confirm a window for an app whatever another app's requests were accepted, and only for that app", () => {
    const resolver = new ModelWindowResolver({}, quiet);
    // Another tenant reaches the model through an account that took 10,000 tokens.
    resolver.accept('fast', { tokens: 10_000 }, user('billing', 'x'));
    expect(resolver.learn('fast', 3_000, user('support', 'u1'))).toBe('user');
    expect(resolver.learn('fast', 3_000, user('support', 'u2'))).toBe('process');
    const agent = (app: string, id: string) => ({ name: 'worker', user: user(app, id) });
    expect(resolver.agentWindow(testPolicy(), 'fast', usageRecord({}), agent('support', 'u3')).window).toBe(3_000);
    expect(resolver.agentWindow(testPolicy(), 'fast', usageRecord({}), agent('billing', 'y')).window).not.toBe(3_000);
  });

  it("should not confirm a window below a request the app's own users had accepted", () => {
    const resolver = new ModelWindowResolver({}, quiet);
    resolver.accept('fast', { tokens: 10_000 }, user('support', 'x'));
    expect(resolver.learn('fast', 3_000, user('support', 'u1'))).toBe('user');
    expect(resolver.learn('fast', 3_000, user('support', 'u2'))).toBe('user');
  });
});
