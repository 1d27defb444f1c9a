/**
 * The limits of the facts a user asks to keep (found by review 9): a user's own nine short rules are not a paste
 * (the one they ask to remember was not even a candidate, where among eight it was kept and marked), and marked
 * facts take at most half the list (a user who says "remember" in every message had every later fact dropped at
 * the compaction that first saw it).
 */
import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { extractFacts } from './fact-candidates.js';
import { mergeFacts } from './durable-facts.js';

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
const RULES = [
  'Deploy only to region eu-west-1.',
  'The budget must stay under 500 dollars.',
  'Never touch the prod DB.',
  'Tests must always pass.',
  'Remember: the customer id is CUST-4471.',
  'Use at least two reviewers.',
  'Only ship on Tuesdays.',
  'The deadline is Friday.',
  'Do not email the vendor.',
];

describe('durable facts of a message of eight or nine rules', () => {
  it('should keep, marked, what a user asks to remember among eight rules', () => {
    const facts = mergeFacts([], extractFacts([user(RULES.slice(0, 8).join(' '))]), 1, {
      maxFacts: 60,
      maxChars: 4_000,
    }).facts;
    expect(facts.find((fact) => fact.text.includes('CUST-4471'))?.asked).toBe(true);
  });

  it('should keep what a user asks to remember among nine rules of their own', () => {
    const facts = mergeFacts([], extractFacts([user(RULES.join(' '))]), 1, { maxFacts: 60, maxChars: 4_000 }).facts;
    expect(facts.find((fact) => fact.text.includes('CUST-4471'))?.asked).toBe(true);
  });
});

describe('a user who says "remember" in a hundred messages', () => {
  it('should still keep the constraint stated last, not drop it at the compaction that first sees it', () => {
    // Before, the 60 marked facts outranked it and the newest constraint was dropped at once, for good.
    const limits = { maxFacts: 60, maxChars: 20_000 };
    let facts = mergeFacts([], [], 0, limits).facts;
    for (let i = 0; i < 100; i++)
      facts = mergeFacts(facts, extractFacts([user(`Remember item ${i}: ticket T-${1000 + i}.`)]), i + 1, limits).facts;
    const deadline = 'The deadline must be 2027-01-15, budget at most 900 dollars.';
    const merged = mergeFacts(facts, extractFacts([user(deadline)]), 101, limits);
    expect(merged.facts.map((fact) => fact.text)).toContain(deadline);
  });
});
