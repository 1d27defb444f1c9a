/**
 * Pasted documentation says "Note that ... must ..." in many sentences (found by review 8 on e5adf34): each such
 * sentence ranked as a fact the user asked to keep, eight from each paste, and the newest pushed out the user's own
 * "Remember: ..." stated before them. A paste's sentences are not marked, whatever they say.
 */
import { describe, expect, it } from 'vitest';
import { userText } from '../../test/support/builders.js';
import { extractFacts } from './fact-candidates.js';
import { mergeFacts, type DurableFact } from './durable-facts.js';

const pastedDoc = (page: number) =>
  Array.from(
    { length: 12 },
    (_, i) => `Note that the setting opt_${page}_${i} must be set before the service starts.`,
  ).join(' ');

describe('pasted documentation that says "note that"', () => {
  it("should keep the user's own fact after ten pasted pages each holding twelve 'note that' sentences", () => {
    const own = 'Remember: my order id is ORD-7731.';
    let facts: DurableFact[] = mergeFacts([], extractFacts([userText(own)]), 1, {
      maxFacts: 60,
      maxChars: 20_000,
    }).facts;
    for (let page = 0; page < 10; page++) {
      const candidates = extractFacts([userText(`Here is page ${page} of the manual: ${pastedDoc(page)}`)]);
      facts = mergeFacts(facts, candidates, page + 2, { maxFacts: 60, maxChars: 20_000 }).facts;
    }
    expect(facts.map((fact) => fact.text)).toContain(own);
  });
});
