/**
 * A long session on ADK's DatabaseSessionService (SQLite in a file), then a
 * "restart": new session service, new Runner, new plugin instance on the same
 * database. The summary and watermark are picked up from storage, nothing is
 * recomputed and nothing is lost.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSessionService } from '@google/adk';
import { afterAll, describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { SUMMARY_MARKER, decodeSummaryRecord, decodeUsageRecord, stateKeysFor } from '../../src/internal.js';
import { createHarness, runTurn, toolThenAnswerScript, startSession, storedSession } from '../support/agent-harness.js';
import { ScriptedSummarizer } from '../../src/testing/index.js';

const WINDOW = 8_000;
const keys = stateKeysFor('worker');
const folder = mkdtempSync(join(tmpdir(), 'context-guard-db-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function openDatabase(file: string): Promise<DatabaseSessionService> {
  const service = new DatabaseSessionService(`sqlite://${file}`);
  await service.init();
  return service;
}

describe('persistence with DatabaseSessionService on SQLite', () => {
  it('should pick up the summary and watermark after a restart without recomputing them', async () => {
    const file = join(folder, 'sessions.sqlite');
    const firstSummarizer = new ScriptedSummarizer();
    const firstStore = await openDatabase(file);
    const first = createHarness({
      window: WINDOW,
      ratio: 1.8,
      script: toolThenAnswerScript(3_000),
      sessionService: firstStore,
      plugins: [
        new ContextGuard({
          contextWindow: WINDOW,
          summarizer: firstSummarizer,
          maskKeepRecent: 0,
          prepareTurnsAhead: 0,
        }),
      ],
    });
    const session = await startSession(firstStore);
    await first.runTurns(session.id, 10);
    expect(first.model.rejectedRequests).toEqual([]);
    const before = await storedSession(firstStore, session.id);
    const storedSummary = decodeSummaryRecord(before.state[keys.summary]);
    const storedUsage = decodeUsageRecord(before.state[keys.usage]);
    expect(storedSummary).toBeDefined();
    expect(storedUsage.compactions).toBe(firstSummarizer.calls.length);
    const eventsBefore = before.events.length;

    // Restart: everything new but the database file.
    const secondSummarizer = new ScriptedSummarizer();
    const secondStore = await openDatabase(file);
    const second = createHarness({
      window: WINDOW,
      ratio: 1.8,
      script: toolThenAnswerScript(0),
      sessionService: secondStore,
      plugins: [
        new ContextGuard({
          contextWindow: WINDOW,
          summarizer: secondSummarizer,
          maskKeepRecent: 0,
          prepareTurnsAhead: 0,
        }),
      ],
    });
    await runTurn(second.runner, session.id, 'Summarize where we are, no tools.');
    const sent = second.model.requests[0]!;
    expect(sent.contents[0]?.parts?.[0]?.text?.startsWith(SUMMARY_MARKER)).toBe(true);
    expect(sent.contents[0]?.parts?.[0]?.text).toContain(storedSummary!.text);
    expect(secondSummarizer.calls).toHaveLength(0);
    expect(second.model.rejectedRequests).toEqual([]);

    const after = await storedSession(secondStore, session.id);
    // Nothing lost: every earlier event is still stored, and the new turn was appended.
    expect(after.events.length).toBeGreaterThan(eventsBefore);
    expect(after.events.slice(0, eventsBefore).map((event) => event.id)).toEqual(
      before.events.map((event) => event.id),
    );
    // The usage counters continued from storage rather than restarting at zero.
    expect(decodeUsageRecord(after.state[keys.usage]).modelCalls).toBe(
      storedUsage.modelCalls + second.model.requests.length,
    );
  });
});
