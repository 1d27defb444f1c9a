/**
 * Review 10 (fails on main; not fixed here): facts first seen at the same compaction tie on recency, and the sort
 * keeps their order, so when the room is short the fact stated LAST is dropped first, the opposite of "the oldest
 * go first" (docs/memory.md). A user's correction then loses to the stale value it corrects, which the summary
 * carries verbatim. Not fixed here: ranking later positions first would also rank the summarizer's `## Key facts`
 * bullets (appended after the user's facts) above the user's own facts of that compaction.
 */
import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { extractFacts, mergeFacts } from './durable-facts.js';

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });

describe('facts first seen at the same compaction', () => {
  it('should drop the one stated first when the room is short, not the correction stated after it', () => {
    const stale = 'The deadline is 2027-01-15.';
    const correction = 'Correction: the deadline is 2027-01-22.';
    const messages = [user(stale), user('Check the logs of api-22.'), user(correction)];
    const { facts, dropped } = mergeFacts([], extractFacts(messages), 1, { maxFacts: 60, maxChars: 60 });
    expect(dropped).toContain(stale);
    expect(facts.map((fact) => fact.text)).toContain(correction);
  });
});
