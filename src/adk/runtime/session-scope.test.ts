import { describe, expect, it } from 'vitest';
import { ContentMeasureCache } from '../../estimate/content-measure-cache.js';
import { childScopePrefix, sessionIdPrefix, sessionScopeKey, scopeOfRef } from './session-scope.js';

const contents = [{ role: 'user', parts: [{ text: 'hello there' }] }];
const characterTokenizer = { name: 'chars', count: (text: string) => text.length };

describe('sessionScopeKey', () => {
  it('should tell apart sessions that share an id but not an app or a user', () => {
    const keys = new Set([
      sessionScopeKey('app-a', 'alice', 'chat-1'),
      sessionScopeKey('app-a', 'bob', 'chat-1'),
      sessionScopeKey('app-b', 'alice', 'chat-1'),
      // Separators inside names cannot make two identities collide.
      sessionScopeKey('app', 'a\u0000b', 'c'),
      sessionScopeKey('app', 'a', 'b\u0000c'),
    ]);
    expect(keys.size).toBe(5);
  });

  it('should read a Session and a getSession request alike', () => {
    expect(scopeOfRef({ appName: 'a', userId: 'u', id: 's' })).toBe(
      scopeOfRef({ appName: 'a', userId: 'u', sessionId: 's' }),
    );
  });
});

describe('forgetting sessions by scope', () => {
  function filled(): ContentMeasureCache {
    const cache = new ContentMeasureCache();
    for (const [app, user, id] of [
      ['a', 'alice', 'chat-1'],
      ['a', 'bob', 'chat-1'],
      ['a', 'alice', 'chat-10'],
    ] as const) {
      cache.measure(`${sessionScopeKey(app, user, id)}\u0000worker`, contents, characterTokenizer);
    }
    return cache;
  }

  it("should release one user's session and keep the other user's of the same id", () => {
    const cache = filled();
    cache.forgetPrefix(`${scopeOfRef({ appName: 'a', userId: 'alice', id: 'chat-1' })}\u0000`);
    expect(cache.sessionCount).toBe(2);
  });

  it("should release every user's session of an id, and only of that id, given the bare id", () => {
    const cache = filled();
    cache.forgetPrefix(sessionIdPrefix('chat-1'));
    expect(cache.sessionCount).toBe(1);
  });

  it("should release an app's AgentTool children at any depth, keyed by the apps that called them, and only those", () => {
    const cache = new ContentMeasureCache();
    const keys = [
      sessionScopeKey(['shop', 'calc_agent'], 'u1', 'chat-1'),
      sessionScopeKey(['shop', 'calc_agent', 'units'], 'u1', 'chat-1'),
      sessionScopeKey(['shop-eu', 'calc_agent'], 'u1', 'chat-1'),
      sessionScopeKey(['shop', 'calc_agent'], 'u1', 'chat-10'),
      // Another user whose session of the app has the same id (an id the app chose; review 40).
      sessionScopeKey(['shop', 'calc_agent'], 'u2', 'chat-1'),
      sessionScopeKey('shop', 'u1', 'chat-1'),
    ];
    for (const key of keys) cache.measure(`${key}\u0000worker`, contents, characterTokenizer);
    cache.forgetPrefix(childScopePrefix({ appName: 'shop', userId: 'u1', id: 'chat-1' }));
    // Left: another app's child, another session's, another user's, and the session itself (its own prefix releases it).
    expect(cache.sessionCount).toBe(4);
  });
});
