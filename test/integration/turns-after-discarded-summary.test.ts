/**
 * A stored summary that no longer matches the history is thrown away, and that call sees the whole history arrive:
 * not what the turn added. The thirty-eighth outside trial (a replica of a release from before a change of
 * fingerprints, taking turns with today's): the whole raw history was counted as one turn's growth, the average turn
 * went from 1.7k to 48k tokens, and `turnsLeft` read 0 for twenty turns with the request at a third of the threshold.
 */
import { createEvent, createEventActions } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { stateKeysFor } from '../../src/internal.js';
import { CapturingLogger, ScriptedSummarizer } from '../../src/testing/index.js';
import { createHarness, toolThenAnswerScript } from '../support/agent-harness.js';

const WINDOW = 8_000;
const keys = stateKeysFor('worker');

describe('a turn whose stored summary is thrown away', () => {
  it("should not count the whole history as that turn's growth", async () => {
    const logger = new CapturingLogger();
    const guard = new ContextGuard({ contextWindow: WINDOW, summarizer: new ScriptedSummarizer(), logger });
    const harness = createHarness({
      window: WINDOW,
      ratio: 1.8,
      script: toolThenAnswerScript(2_400),
      plugins: [guard],
    });
    const session = await harness.startSession();
    await harness.runTurns(session.id, 30);
    const before = guard.status(await harness.storedSession(session.id), 'worker');
    expect(before.compactions).toBeGreaterThan(0);
    expect(before.averageTurnTokens).toBeDefined();

    // Another program (or a release that fingerprints otherwise) leaves a summary whose anchor matches nothing.
    const stored = await harness.storedSession(session.id);
    const record = stored.state[keys.summary] as Record<string, unknown>;
    const actions = createEventActions({
      stateDelta: { [keys.summary]: { ...record, anchor: 'no.such|anchor', contents: undefined } },
    });
    await harness.sessionService.appendEvent({ session: stored, event: createEvent({ author: 'user', actions }) });
    await harness.runTurns(session.id, 31, { from: 31 });

    const discarded = logger.matching(/stored summary not applied/);
    expect(discarded).toHaveLength(1);
    // That call compacted afresh (the history is over the threshold): an info line that says so, not a warning
    // that the full history is sent (trial 49).
    expect(discarded[0]?.level).toBe('info');
    expect(discarded[0]?.message).toContain('Compacting the history afresh in this call');
    const after = guard.status(await harness.storedSession(session.id), 'worker');
    expect(after.averageTurnTokens).toBeLessThan(2 * (before.averageTurnTokens ?? 0));
    expect(after.turnsLeft).toBeGreaterThan(0);
  });
});
