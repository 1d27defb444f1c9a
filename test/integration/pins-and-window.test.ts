/**
 * Pins obey the window in force. A pin accepted under a 200k window, or an
 * oversized pin written to state by hand, must not make every later turn fail
 * once the agent runs on an 8k model: the pins are fitted to the current cap
 * for each request (oldest left out, a lone one cut head and tail), with one
 * warning, and state keeps them whole.
 */
import { createEvent, createEventActions, InMemorySessionService } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard, tiktokenTokenizer } from '../../src/index.js';
import { PINNED_MARKER, stateKeysFor, storedPins } from '../../src/internal.js';
import { createHarness, runTurn, toolThenAnswerScript, startSession, storedSession } from '../support/agent-harness.js';
import { CapturingLogger, ScriptedSummarizer } from '../../src/testing/index.js';
import { logText, proseText } from '../../src/testing/index.js';

const SMALL = 8_000;
// The old list key, as versions before one key per pin wrote it: still read.
const pinsKey = stateKeysFor('worker').pins;

async function smallModelTurns(sessionService: InMemorySessionService, sessionId: string) {
  const logger = new CapturingLogger();
  const harness = createHarness({
    window: SMALL,
    ratio: 1.8,
    script: toolThenAnswerScript(1_000),
    sessionService,
    plugins: [new ContextGuard({ contextWindow: SMALL, summarizer: new ScriptedSummarizer(), logger })],
  });
  const answered: boolean[] = [];
  for (let turn = 1; turn <= 3; turn++) {
    const events = await runTurn(harness.runner, sessionId, `Turn ${turn}: check the logs.`);
    answered.push(events.some((event) => !event.errorCode && event.content?.parts?.some((part) => part.text)));
  }
  return { harness, logger, answered };
}

describe('pins under a smaller window', () => {
  it('should keep answering after the agent moves from a 200k to an 8k model with a 12k-token pin', async () => {
    const sessionService = new InMemorySessionService();
    const large = createHarness({
      window: 200_000,
      ratio: 1.8,
      script: toolThenAnswerScript(0),
      sessionService,
      plugins: [],
    });
    const bigGuard = new ContextGuard({ contextWindow: 200_000 });
    const session = await startSession(sessionService);
    await runTurn(large.runner, session.id, 'Hello.');
    const text = `PIN-START ${proseText(68_000, 7)} PIN-END`;
    // The premise: about 12k tokens, under the 200k guard's pin cap, far over the 8k model's.
    expect(tiktokenTokenizer.count(text)).toBeGreaterThan(10_000);
    expect(tiktokenTokenizer.count(text)).toBeLessThan(14_000);
    await bigGuard.pin({
      sessionService,
      session: await storedSession(sessionService, session.id),
      text,
      agentName: 'worker',
    });

    const { harness, logger, answered } = await smallModelTurns(sessionService, session.id);
    expect(harness.model.rejectedRequests.map((request) => request.promptTokens)).toEqual([]);
    expect(answered).toEqual([true, true, true]);
    // The pin rides, cut head and tail, in every request; state still holds it whole.
    for (const request of harness.model.requests) {
      const pinned = request.contents[0]?.parts?.[0]?.text ?? '';
      expect(pinned.startsWith(PINNED_MARKER)).toBe(true);
      expect(pinned).toContain('PIN-START');
      expect(pinned).toContain('PIN-END');
    }
    const stored = await storedSession(sessionService, session.id);
    expect(storedPins(stored.state, 'worker').map((pin) => pin.text)).toEqual([text]);
    expect(
      logger.lines.filter((line) => line.level === 'warn' && line.message.includes('pins take more than their cap')),
    ).toHaveLength(1);
  });

  it('should keep answering when oversized pins are written to state by hand', async () => {
    const sessionService = new InMemorySessionService();
    const session = await startSession(sessionService);
    const pins = [1, 2, 3].map((i) => ({
      id: `hand-${i}`,
      text: `HAND-${i} ${logText(6_000, i)}`,
      source: 'application',
      createdAt: i,
    }));
    await sessionService.appendEvent({
      session,
      event: createEvent({
        invocationId: 'hand-written',
        author: 'user',
        actions: createEventActions({ stateDelta: { [pinsKey]: pins } }),
      }),
    });
    const { harness, answered } = await smallModelTurns(sessionService, session.id);
    expect(harness.model.rejectedRequests.map((request) => request.promptTokens)).toEqual([]);
    expect(answered).toEqual([true, true, true]);
    // The newest pin is the one kept.
    expect(harness.model.requests[0]?.contents[0]?.parts?.[0]?.text).toContain('HAND-3');
  });
});
