/**
 * A summary prepared in the background that falls short at the threshold (masking off, a large buffer: it covers
 * a turn less than the compaction needs) made the call summarize again, each time: two summarizer calls a
 * compaction, and the wait all the same (the fifteenth outside trial: 38 summarizer calls for 19 compactions on
 * 8k, `scripts/preparation-cost.ts`). After the first that falls short the session prepares no more.
 */
import { InMemorySessionService, Runner } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { decodeUsageRecord, stateKeysFor } from '../../src/internal.js';
import { pageReaderAgent } from '../support/page-reader-agent.js';
import { APP_NAME, USER_ID, userMessage } from '../support/agent-harness.js';

const WINDOW = 8_000;

describe('a prepared summary that falls short at the threshold', () => {
  it('should not be prepared again in the session: one summarizer call a compaction after the first', async () => {
    const { agent } = pageReaderAgent(WINDOW, 4);
    // The agent's own model summarizes (the default); masking off; a buffer the prepared summaries fall short of.
    const guard = new ContextGuard({ contextWindow: WINDOW, maskKeepRecent: 0, bufferTokens: 3_000 });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] });
    const { id } = await sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
    for (let turn = 1; turn <= 40; turn++)
      for await (const event of runner.runAsync({
        userId: USER_ID,
        sessionId: id,
        newMessage: userMessage(`Turn ${turn}.`),
      }))
        expect(event.errorCode).toBeUndefined();
    const session = await sessionService.getSession({ appName: APP_NAME, userId: USER_ID, sessionId: id });
    const status = guard.status(session, 'worker');
    expect(decodeUsageRecord(session?.state[stateKeysFor('worker').usage]).preparedFellShort).toBe(true);
    expect(status.compactions).toBeGreaterThanOrEqual(10);
    // The first that fell short cost one more call; a preparation still running at the end may be billed too.
    expect(status.summarizerCalls).toBeLessThanOrEqual(status.compactions + 2);
  });
});
