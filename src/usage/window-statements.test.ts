import { describe, expect, it } from 'vitest';
import { confirmedBy, MAX_STATING_USERS, withStatement } from './window-statements.js';

describe('confirmedBy', () => {
  const statements = new Map([
    ['alice', 4_000],
    ['bob', 8_000],
  ]);

  it("should confirm a maximum another user's rejection stated", () => {
    expect(confirmedBy(statements, 'carol', 4_000)).toBe(true);
  });

  it('should not confirm a maximum only the same user stated, nor a different one', () => {
    expect(confirmedBy(statements, 'alice', 4_000)).toBe(false);
    expect(confirmedBy(statements, 'carol', 4_001)).toBe(false);
    expect(confirmedBy(undefined, 'carol', 4_000)).toBe(false);
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
