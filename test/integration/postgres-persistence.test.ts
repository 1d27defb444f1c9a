/**
 * The persistence guarantees on PostgreSQL through ADK's DatabaseSessionService
 * (`@mikro-orm/postgresql`). Runs when POSTGRES_URL is set, for example
 * `postgres://postgres:postgres@127.0.0.1:5432/guard_test`; `.ci/run` starts a
 * local server and sets it, so CI always runs it.
 */
import { randomUUID } from 'node:crypto';
import { DatabaseSessionService } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { SUMMARY_MARKER, decodeSummaryRecord, decodeUsageRecord, stateKeysFor } from '../../src/internal.js';
import {
  APP_NAME,
  USER_ID,
  createHarness,
  runTurn,
  summarizingGuard,
  toolThenAnswerScript,
  storedSession,
} from '../support/agent-harness.js';
import { ScriptedSummarizer } from '../../src/testing/index.js';

const url = process.env['POSTGRES_URL'];
const keys = stateKeysFor('worker');

describe.skipIf(!url)('persistence with DatabaseSessionService on PostgreSQL', () => {
  it('should pick up the summary and watermark after a restart without recomputing them', async () => {
    const firstStore = new DatabaseSessionService(url!);
    await firstStore.init();
    const first = createHarness({
      window: 8_000,
      ratio: 1.8,
      script: toolThenAnswerScript(3_000),
      sessionService: firstStore,
      // Summaries made in the call: masking alone would make room here, and preparing ahead adds summarizer calls.
      plugins: [summarizingGuard()],
    });
    const session = await firstStore.createSession({
      appName: APP_NAME,
      userId: USER_ID,
      sessionId: `pg-${randomUUID()}`,
    });
    await first.runTurns(session.id, 10);
    expect(first.model.rejectedRequests).toEqual([]);
    const before = await storedSession(firstStore, session.id);
    const summary = decodeSummaryRecord(before.state[keys.summary]);
    expect(summary).toBeDefined();

    const secondStore = new DatabaseSessionService(url!);
    await secondStore.init();
    const summarizer = new ScriptedSummarizer();
    const second = createHarness({
      window: 8_000,
      ratio: 1.8,
      script: toolThenAnswerScript(0),
      sessionService: secondStore,
      plugins: [summarizingGuard({ summarizer })],
    });
    await runTurn(second.runner, session.id, 'Where are we? No tools.');
    expect(second.model.requests[0]!.contents[0]?.parts?.[0]?.text?.startsWith(SUMMARY_MARKER)).toBe(true);
    expect(summarizer.calls).toHaveLength(0);
    const after = await storedSession(secondStore, session.id);
    expect(after.events.length).toBeGreaterThan(before.events.length);
    expect(decodeUsageRecord(after.state[keys.usage]).compactions).toBe(
      decodeUsageRecord(before.state[keys.usage]).compactions,
    );
  });
});
