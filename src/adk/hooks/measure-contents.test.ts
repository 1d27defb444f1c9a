import { DatabaseSessionService, InMemorySessionService } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { appendsInOrder } from './measure-contents.js';

describe('appendsInOrder', () => {
  it("should trust ADK's own in-memory store alone to keep a session's events in the order appended", () => {
    expect(appendsInOrder(new InMemorySessionService())).toBe(true);
    // A store of its own may reorder or drop events on read, even one built on the in-memory store.
    class SortingSessionService extends InMemorySessionService {}
    expect(appendsInOrder(new SortingSessionService())).toBe(false);
    // ADK's database store reads a session back ordered by timestamp.
    expect(appendsInOrder(new DatabaseSessionService('sqlite://:memory:'))).toBe(false);
    expect(appendsInOrder(undefined)).toBe(false);
    // An instance whose reads or appends are replaced is another store.
    const wrapped = new InMemorySessionService();
    const read = wrapped.getSession.bind(wrapped);
    wrapped.getSession = async (request) => read(request);
    expect(appendsInOrder(wrapped)).toBe(false);
  });

  it('should trust it only in the ADK release whose source was read', () => {
    expect(appendsInOrder(new InMemorySessionService(), '2.0.3')).toBe(true);
    expect(appendsInOrder(new InMemorySessionService(), '2.1.0')).toBe(false);
    expect(appendsInOrder(new InMemorySessionService(), '3.0.0')).toBe(false);
  });
});
