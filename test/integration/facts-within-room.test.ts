/**
 * Review 10: the durable facts' floor (the previous summary's facts' characters) and the marked facts kept whatever
 * the room for facts, through a real Runner on a small window. Together they ratcheted: a marked fact kept over the
 * room raised the floor of every later compaction, until the facts took the whole marked share (30 facts of up to
 * 240 characters) whatever the window, and on a 4k window every turn compacted.
 */
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { decodeSummaryRecord, stateKeysFor } from '../../src/internal.js';
import { logText, ScriptedSummarizer } from '../../src/testing/index.js';
import { callThenAnswer } from '../support/call-then-answer.js';
import { createHarness, errorCodes, runTurn } from '../support/agent-harness.js';
import type { Event } from '@google/adk';

const WINDOW = 4_000;
const TURNS = 40;

/** A fact of about 230 characters (a fact keeps 240) the user asks to keep, its own for each `i`. */
const marked = (i: number): string =>
  `Remember: shipment ${i} is SHP-${9_100 + i} to warehouse W-${i}, dock ${i % 7}, contact ops-${i}@example.com, ` +
  `and its customs form is CF-${55_000 + i}; never reroute it without written approval from the site office ` +
  'and a call to the night shift lead first.';

describe('review 10: facts a user asks to keep in every message, on a 4k window', () => {
  it('should not compact ever more often as the carried facts ratchet up to the marked share', async () => {
    const summarizer = new ScriptedSummarizer();
    // One call a summary (its window takes all a summary covers): the calls count the compactions.
    const guard = new ContextGuard({
      contextWindow: WINDOW,
      summarizer,
      maskKeepRecent: 0,
      prepareTurnsAhead: 0,
      summarizerContextWindow: 32_000,
    });
    const script = callThenAnswer({
      call: () => undefined,
      answer: ({ request }) => `Noted. ${logText(1_500, request.contents.length)}`,
    });
    const harness = createHarness({ window: WINDOW, ratio: 1.2, script, plugins: [guard] });
    const session = await harness.startSession();
    const events: Event[] = [];
    const callsBefore: number[] = [];
    for (let i = 0; i < TURNS; i++) {
      callsBefore.push(summarizer.calls.length);
      events.push(...(await runTurn(harness.runner, session.id, marked(i))));
    }
    expect(marked(TURNS).length).toBeLessThanOrEqual(240);
    expect(errorCodes(events)).toEqual([]);
    expect(harness.model.rejectedRequests).toEqual([]);
    // Before the fix: a summary every second turn at the end, 13 in 40 (one every fifth after it, 7 in 40).
    expect(summarizer.calls.length - callsBefore[TURNS - 10]!).toBeLessThanOrEqual(3);
    const stored = await harness.storedSession(session.id);
    const summary = decodeSummaryRecord(stored.state[stateKeysFor('worker').summary])!;
    // Facts the user asked to keep are still carried, as many as a normal compaction's room for facts holds.
    expect(summary.facts?.filter((fact) => fact.asked).length).toBeGreaterThanOrEqual(5);
  });
});
