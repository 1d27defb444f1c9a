import { describe, expect, it } from 'vitest';
import { decodeFacts } from './stored-facts.js';

describe('decodeFacts', () => {
  it('should read the marks back only as true', () => {
    expect(
      decodeFacts([
        { text: 'a fact A-1', addedAt: 1, lastSeen: 1, asked: true },
        { text: 'a fact A-2', addedAt: 1, lastSeen: 1, asked: 'yes', pasted: 1 },
        { text: 'a fact A-3', addedAt: 1, lastSeen: 1, pasted: true },
        { text: 'a fact A-4', addedAt: 1, lastSeen: 1, listed: true },
        { text: 'a fact A-5', addedAt: 1, lastSeen: 1, listed: 'yes', pasted: true },
      ]),
    ).toEqual([
      { text: 'a fact A-1', addedAt: 1, lastSeen: 1, asked: true },
      { text: 'a fact A-2', addedAt: 1, lastSeen: 1 },
      { text: 'a fact A-3', addedAt: 1, lastSeen: 1, pasted: true },
      { text: 'a fact A-4', addedAt: 1, lastSeen: 1, listed: true },
      { text: 'a fact A-5', addedAt: 1, lastSeen: 1, pasted: true },
    ]);
  });

  it('should read a plain string as a fact, and anything else it cannot read as unusable, not as no facts', () => {
    expect(decodeFacts(['My order id is ORD-55821-XK.'])).toEqual([
      { text: 'My order id is ORD-55821-XK.', addedAt: 0, lastSeen: 0 },
    ]);
    expect(decodeFacts(undefined)).toEqual([]);
    expect(decodeFacts('My order id is ORD-55821-XK.')).toBeNull();
    expect(decodeFacts([{ text: 'kept', addedAt: 1, lastSeen: 1 }, { fact: 'renamed field' }])).toBeNull();
    expect(decodeFacts([''])).toBeNull();
  });
});

describe('facts an earlier release stored, without their origins', () => {
  const stored = [
    { text: 'Remember: my order id is ORDER-1003.', addedAt: 1, lastSeen: 4 },
    { text: 'The deploy runs at 17:00 UTC.', addedAt: 2, lastSeen: 4 },
  ];

  it("should tell a fact the user asked to keep from its words, so it keeps the user's rank", () => {
    expect(decodeFacts(stored, false)).toEqual([
      { text: 'Remember: my order id is ORDER-1003.', addedAt: 1, lastSeen: 4, asked: true },
      { text: 'The deploy runs at 17:00 UTC.', addedAt: 2, lastSeen: 4 },
    ]);
  });

  it('should leave the facts of a record that carries their origins as they are stored', () => {
    // Today's release marks at most the first and last asked facts of one message: an unmarked one stays unmarked.
    expect(decodeFacts(stored, true)).toEqual(stored);
    const listed = [{ text: 'Remember the logs said ERR-42.', addedAt: 1, lastSeen: 1, listed: true }];
    expect(decodeFacts(listed, false)).toEqual(listed);
  });
});
