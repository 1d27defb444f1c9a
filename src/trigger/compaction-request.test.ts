import { describe, expect, it } from 'vitest';
import { compactionRequestId, pendingCompactionRequest } from './compaction-request.js';

describe('pendingCompactionRequest', () => {
  it('should be pending while the mark differs from the handled id', () => {
    expect(pendingCompactionRequest('b', 'a')).toBe('b');
    expect(pendingCompactionRequest('b', undefined)).toBe('b');
    expect(pendingCompactionRequest('a', 'a')).toBeUndefined();
  });

  it('should read a mark of an older version (its time) as a request, served once', () => {
    expect(pendingCompactionRequest(1_764_000_000_000, undefined)).toBe('1764000000000');
    expect(pendingCompactionRequest(1_764_000_000_000, '1764000000000')).toBeUndefined();
  });

  it('should see no request in a cleared or missing mark', () => {
    expect(pendingCompactionRequest(null, undefined)).toBeUndefined();
    expect(pendingCompactionRequest(undefined, 'a')).toBeUndefined();
  });

  it('should give any other stored value an id of its own', () => {
    expect(compactionRequestId({ at: 1 })).toBe('{"at":1}');
    expect(pendingCompactionRequest(true, 'true')).toBeUndefined();
  });

  it('should serve an object mark once when the database gives it back with its keys reordered', () => {
    // PostgreSQL's jsonb stores keys by length, then bytes: the handled id was written from the order read first.
    const written = { requestedBy: 'ops', at: 1, nested: { zeta: [1, { b: 2, a: 1 }], alpha: null } };
    const reloaded = { at: 1, nested: { alpha: null, zeta: [1, { a: 1, b: 2 }] }, requestedBy: 'ops' };
    expect(pendingCompactionRequest(reloaded, compactionRequestId(written))).toBeUndefined();
    expect(pendingCompactionRequest({ ...reloaded, at: 2 }, compactionRequestId(written))).toBeDefined();
  });
});
