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
import { createHarness, runTurn, toolThenAnswerScript, type Harness } from '../support/agent-harness.js';
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

/** A guarded agent on `store` (one process's view of the database); the summaries made in the call are under test. */
function guardedOn(store: DatabaseSessionService, summarizer: ScriptedSummarizer, toolChars: number): Harness {
  return createHarness({
    window: WINDOW,
    ratio: 1.8,
    script: toolThenAnswerScript(toolChars),
    sessionService: store,
    plugins: [new ContextGuard({ contextWindow: WINDOW, summarizer, maskKeepRecent: 0, prepareTurnsAhead: 0 })],
  });
}

describe('persistence with DatabaseSessionService on SQLite', () => {
  it('should pick up the summary and watermark after a restart without recomputing them', async () => {
    const file = join(folder, 'sessions.sqlite');
    const firstSummarizer = new ScriptedSummarizer();
    const firstStore = await openDatabase(file);
    const first = guardedOn(firstStore, firstSummarizer, 3_000);
    const session = await first.startSession();
    await first.runTurns(session.id, 10);
    expect(first.model.rejectedRequests).toEqual([]);
    const before = await first.storedSession(session.id);
    const storedSummary = decodeSummaryRecord(before.state[keys.summary]);
    const storedUsage = decodeUsageRecord(before.state[keys.usage]);
    expect(storedSummary).toBeDefined();
    expect(storedUsage.compactions).toBe(firstSummarizer.calls.length);
    const eventsBefore = before.events.length;

    // Restart: everything new but the database file.
    const secondSummarizer = new ScriptedSummarizer();
    const secondStore = await openDatabase(file);
    const second = guardedOn(secondStore, secondSummarizer, 0);
    await runTurn(second.runner, session.id, 'Summarize where we are, no tools.');
    const sent = second.model.requests[0]!;
    expect(sent.contents[0]?.parts?.[0]?.text?.startsWith(SUMMARY_MARKER)).toBe(true);
    expect(sent.contents[0]?.parts?.[0]?.text).toContain(storedSummary!.text);
    expect(secondSummarizer.calls).toHaveLength(0);
    expect(second.model.rejectedRequests).toEqual([]);

    const after = await second.storedSession(session.id);
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
