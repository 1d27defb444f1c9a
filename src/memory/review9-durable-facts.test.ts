/**
 * Review 9 attacks on 5b9f7a4 (a message of more than eight candidates is a paste: first and last four, none
 * marked). A user's own instructions of nine short rules are not a paste: the one they ask to remember, fifth,
 * is not even a candidate, where with eight rules it is kept and marked. Fails on main; not fixed here.
 */
import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { extractFacts, mergeFacts } from './durable-facts.js';

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

describe('review 9: durable facts of a message of eight or nine rules', () => {
  it('should keep, marked, what a user asks to remember among eight rules (as main does)', () => {
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
