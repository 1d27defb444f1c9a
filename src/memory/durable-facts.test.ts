import { describe, expect, it } from 'vitest';
import { userText } from '../../test/support/builders.js';
import { extractFacts, mergeFacts } from './durable-facts.js';

const logLines = (count: number) => Array.from({ length: count }, (_, i) => `GET /orders status=200 id=A${100 + i}`);

describe('extractFacts', () => {
  it('should take every candidate of a short message', () => {
    expect(extractFacts([userText('The project id is P-4431. Never deploy on Fridays. Thanks')])).toEqual([
      'The project id is P-4431.',
      'Never deploy on Fridays.',
    ]);
  });

  it('should take at most eight of one message: those asked to be kept, then its first and last', () => {
    const lines = logLines(40);
    const pasted = `Here is the log:\n${lines.join('\n')}\nNote that order 7731 is the one that failed.`;
    const facts = extractFacts([userText(pasted)]);
    expect(facts).toHaveLength(8);
    expect(facts).toContain('Note that order 7731 is the one that failed.');
    expect(facts.slice(0, 4)).toEqual(lines.slice(0, 4));
    expect(facts.slice(4, 7)).toEqual(lines.slice(-3));
  });
});

describe('mergeFacts', () => {
  it('should keep a fact the user asked to keep ahead of facts seen more recently', () => {
    const asked = { text: 'Remember: my order id is ORD-7731.', addedAt: 1, lastSeen: 1 };
    const later = logLines(10).map((text, i) => ({ text, addedAt: 2 + i, lastSeen: 2 + i }));
    const { facts, dropped } = mergeFacts([asked, ...later], logLines(12).slice(10), 12, {
      maxFacts: 5,
      maxChars: 10_000,
    });
    expect(facts.map((fact) => fact.text)).toContain(asked.text);
    expect(facts).toHaveLength(5);
    expect(dropped).not.toContain(asked.text);
  });

  it('should still drop the least recently seen of the rest, then the oldest', () => {
    const old = { text: 'Deploy id D-1.', addedAt: 1, lastSeen: 1 };
    const recent = { text: 'Deploy id D-2.', addedAt: 2, lastSeen: 3 };
    expect(mergeFacts([old, recent], [], 3, { maxFacts: 1, maxChars: 1_000 })).toEqual({
      facts: [recent],
      dropped: [old.text],
    });
  });
});
