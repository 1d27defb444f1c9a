/**
 * Facts first seen at the same compaction tie on recency. Before, the sort kept their order, so when the room was
 * short the fact stated LAST was dropped first, the opposite of "the oldest go first" (docs/memory.md), and a user's
 * correction lost to the stale value it corrects (review 10). Now the later in the list comes first; the summarizer's
 * `## Key facts` are listed before the user's facts, so the user's words outrank them
 * (`src/summary/build-summary-record.test.ts`).
 */
import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { extractFacts } from './fact-candidates.js';
import { mergeFacts } from './durable-facts.js';

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
