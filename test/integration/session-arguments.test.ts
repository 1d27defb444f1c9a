/**
 * The guard's public session methods given something other than a session, as a newcomer
 * does (a session id, the `undefined` of a `getSession` that found nothing), on a session a real
 * Runner has guarded: `status()` and `forgetSession()` never throw (one warning naming what they
 * expect, and an empty result), `pin()` and `requestCompaction()`, whose writes the caller counts
 * on, reject with a clear `TypeError` before writing anything.
 */
import { describe, expect, it } from 'vitest';
import { ContextGuard, type StatusSession } from '../../src/index.js';
import { CapturingLogger, ScriptedSummarizer } from '../../src/testing/index.js';
import { createHarness, toolThenAnswerScript } from '../support/agent-harness.js';

const EXPECTED = 'a session object as ADK returns it';

async function guardedSession() {
  const logger = new CapturingLogger();
  const guard = new ContextGuard({ contextWindow: 8_000, summarizer: new ScriptedSummarizer(), logger });
  const harness = createHarness({ window: 8_000, script: toolThenAnswerScript(500), plugins: [guard] });
  const session = await harness.sessionAfterTurns(2);
  return { guard, harness, session, logger };
}

/** Values a caller passes where a session belongs; `status` is typed, so they go through `unknown`. */
const NOT_SESSIONS = (sessionId: string): Array<[string, unknown]> => [
  ['undefined', undefined],
  ['null', null],
  ['the session id', sessionId],
  ['a number', 7],
  ['an object without state', { id: sessionId }],
  ['an object whose state is null', { id: sessionId, state: null }],
];

describe('session arguments', () => {
  it('should answer status() of something that is not a session with nothing known and one warning, never a throw', async () => {
    const { guard, session, logger } = await guardedSession();
    expect(guard.status(session).map((status) => status.agentName)).toEqual(['worker']);
    for (const [label, value] of NOT_SESSIONS(session.id)) {
      const before = logger.atOrAbove('warn').length;
      const all = guard.status(value as StatusSession);
      const one = guard.status(value as StatusSession, 'worker');
      expect(all, label).toEqual([]);
      expect(one, label).toMatchObject({ agentName: 'worker', known: false, modelCalls: 0 });
      const warnings = logger.atOrAbove('warn').slice(before);
      expect(warnings, label).toHaveLength(2);
      for (const warning of warnings) {
        expect(warning.message).toContain(`status() expects ${EXPECTED}`);
        // The id may be a user's: the warning names the kind of value, never the value.
        expect(warning.message).not.toContain(session.id);
      }
    }
    expect(logger.matching(/status\(\) expects/).at(4)?.message).toContain('a string (a session id?');
  });

  it('should refuse pin() and requestCompaction() without a stored session with a clear TypeError, writing nothing', async () => {
    const { guard, harness, session } = await guardedSession();
    const { sessionService } = harness;
    for (const [label, value] of NOT_SESSIONS(session.id)) {
      const pin = guard.pin({ sessionService, session: value as typeof session, text: 'Keep replies short.' });
      await expect(pin, label).rejects.toThrow(TypeError);
      await expect(pin, label).rejects.toThrow(`pin() expects ${EXPECTED}`);
      const compact = guard.requestCompaction({
        sessionService,
        session: value as typeof session,
        agentName: 'worker',
      });
      await expect(compact, label).rejects.toThrow(`requestCompaction() expects ${EXPECTED}`);
    }
    const noService = guard.pin({ sessionService: undefined as unknown as typeof sessionService, session, text: 'x' });
    await expect(noService).rejects.toThrow(/pin\(\) expects .*sessionService that is undefined/);
    const stored = await harness.storedSession(session.id);
    expect(stored.events).toHaveLength(session.events.length);
    // The same calls with the session itself still write.
    await guard.pin({ sessionService, session: stored, text: 'Keep replies short.' });
    expect((await harness.storedSession(session.id)).events).toHaveLength(session.events.length + 1);
  });

  it('should name the argument that is wrong, and refuse an empty text or agent name, writing nothing', async () => {
    const { guard, harness, session } = await guardedSession();
    const { sessionService } = harness;
    const stored = await harness.storedSession(session.id);
    const noAgent = guard.requestCompaction({ sessionService, session: stored, agentName: undefined as never });
    await expect(noAgent).rejects.toThrow(
      'ContextGuard: requestCompaction(): agentName is not a string; it takes { sessionService, session, agentName }.',
    );
    await expect(guard.pin({ sessionService, session: stored, text: '  ' })).rejects.toThrow(
      /^ContextGuard: pin\(\): text is empty/,
    );
    await expect(guard.pin({ sessionService, session: stored, text: 'x', agentName: '' })).rejects.toThrow(
      /^ContextGuard: pin\(\): agentName is empty/,
    );
    expect((await harness.storedSession(session.id)).events).toHaveLength(stored.events.length);
  });

  it('should log and forget nothing when forgetSession() gets neither a session id nor a session', async () => {
    const { guard, session, logger } = await guardedSession();
    for (const value of [undefined, null, 7, {}, { appName: 'app', userId: 'user' }]) {
      expect(() => guard.forgetSession(value as string)).not.toThrow();
    }
    const warnings = logger.matching(/forgetSession\(\) expects a session id or/);
    expect(warnings).toHaveLength(5);
    expect(warnings.at(-1)?.message).toContain('without a string id');
    guard.forgetSession(session);
    guard.forgetSession(session.id);
    expect(logger.matching(/forgetSession\(\) expects/)).toHaveLength(5);
  });
});
