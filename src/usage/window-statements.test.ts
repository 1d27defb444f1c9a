import { describe, expect, it } from 'vitest';
import { appOfUser, confirmedBy, MAX_STATING_USERS, withStatement } from './window-statements.js';

/** A user key as the shell writes it (adk/runtime/session-scope.ts `userOfContext`): app and user id. */
const user = (id: string, app = 'billing'): string => JSON.stringify([app, id]);

describe('confirmedBy', () => {
  const statements = new Map([
    [user('alice'), 4_000],
    [user('bob'), 8_000],
  ]);

  it("should confirm a maximum another user's rejection stated", () => {
    expect(confirmedBy(statements, user('carol'), 4_000)).toBe(true);
  });

  it('should not confirm a maximum only the same user stated, nor a different one', () => {
    expect(confirmedBy(statements, user('alice'), 4_000)).toBe(false);
    expect(confirmedBy(statements, user('carol'), 4_001)).toBe(false);
    expect(confirmedBy(undefined, user('carol'), 4_000)).toBe(false);
  });

  it("should not confirm a maximum only another app's users stated: one tenant's account is not another's", () => {
    expect(confirmedBy(statements, user('carol', 'support'), 4_000)).toBe(false);
    expect(confirmedBy(statements, user('alice', 'support'), 4_000)).toBe(false);
  });
});

describe('appOfUser', () => {
  it('should give the app of a user key, and an unreadable key whole', () => {
    expect(appOfUser(user('alice'))).toBe(appOfUser(user('bob')));
    expect(appOfUser(user('alice'))).not.toBe(appOfUser(user('alice', 'support')));
    expect(appOfUser('not json')).toBe('not json');
  });
});

describe('withStatement', () => {
  it("should keep each user's latest statement, most recent last, without changing the map it was given", () => {
    const before = new Map([
      ['alice', 4_000],
      ['bob', 8_000],
    ]);
    const after = withStatement(before, 'alice', 5_000);
    expect([...after]).toEqual([
      ['bob', 8_000],
      ['alice', 5_000],
    ]);
    expect([...before]).toEqual([
      ['alice', 4_000],
      ['bob', 8_000],
    ]);
  });

  it('should drop the least recent users past the cap', () => {
    let statements = withStatement(undefined, 'u0', 4_000);
    for (let user = 1; user <= MAX_STATING_USERS; user++) statements = withStatement(statements, `u${user}`, 4_000);
    expect(statements.size).toBe(MAX_STATING_USERS);
    expect(statements.has('u0')).toBe(false);
    expect(statements.has(`u${MAX_STATING_USERS}`)).toBe(true);
  });
});
