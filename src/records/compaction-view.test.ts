import { describe, expect, it } from 'vitest';
import { compactionView } from './compaction-view.js';
import { agentStatus } from '../status/context-status.js';
import { stateKeysFor } from '../state/keys.js';

const FACTS = [
  { text: 'Order ORD-7741 ships to Lyon.', addedAt: 1, lastSeen: 2 },
  { text: 'The customer prefers email.', addedAt: 2, lastSeen: 2 },
];

/** A session whose stored summary carries durable facts beside the summarizer's text. */
function sessionWithFacts() {
  const keys = stateKeysFor('worker');
  const summary = {
    version: 1,
    text: 'The user asked about an order.',
    covered: 2,
    anchor: 'a',
    compactions: 2,
    fallback: false,
    createdAt: 1,
    facts: FACTS,
  };
  return { state: { [keys.summary]: summary }, events: [] };
}

describe('what the audit views say of a summary with durable facts', () => {
  it('compactionView shows the facts block the model is sent, and lists the facts', () => {
    const view = compactionView(sessionWithFacts(), 'worker');
    expect(view.summary?.facts).toEqual(FACTS.map((fact) => fact.text));
    for (const fact of FACTS) expect(view.modelView).toContain(`- ${fact.text}`);
    expect(view.modelView).toContain('## Durable facts');
  });

  it("status() counts the facts' block in the summary's characters", () => {
    const session = sessionWithFacts();
    const status = agentStatus(session.state, 'worker');
    expect(status.summary?.facts).toBe(2);
    const body = 'The user asked about an order.';
    expect(status.summary?.chars).toBeGreaterThan(body.length + FACTS.map((fact) => fact.text).join('').length);
  });
});

describe('compactionView of something that is not a stored session', () => {
  it('should give an empty view, never throw, for a missing session or one without events', () => {
    for (const session of [undefined, { state: undefined as never }, { state: {}, events: 'x' as never }]) {
      const view = compactionView(session, 'worker');
      expect(view).toMatchObject({ summary: undefined, records: [], replacedEventIds: [], visibleEventIds: [] });
      expect(view.modelView).toBe('');
    }
    // listSessions returns sessions without their events: the stored summary still shows.
    const { state } = sessionWithFacts();
    expect(compactionView({ state }, 'worker').summary?.text).toBe('The user asked about an order.');
  });
});
