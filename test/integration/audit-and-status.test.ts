/**
 * Compaction records, status and the compaction-aware view, through a real
 * Runner on a SQLite DatabaseSessionService, read back after a reload.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSessionService } from '@google/adk';
import { afterAll, describe, expect, it } from 'vitest';
import { ContextGuard, compactionView, formatContextMeter, type CompactionRecord } from '../../src/index.js';
import { COMPACTION_METADATA_KEY, decodeCompactionRecord } from '../../src/internal.js';
import { createHarness, toolThenAnswerScript, startSession, storedSession } from '../support/agent-harness.js';
import { ScriptedSummarizer } from '../../src/testing/index.js';

const WINDOW = 8_000;
const folder = mkdtempSync(join(tmpdir(), 'context-guard-audit-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('audit trail and status', () => {
  it('should persist a record per compaction on the model event, report status, and map summaries to the events they replaced', async () => {
    const file = join(folder, 'audit.sqlite');
    const store = new DatabaseSessionService(`sqlite://${file}`);
    await store.init();
    const heard: CompactionRecord[] = [];
    // Summaries are what this test audits: masking off.
    const guard = new ContextGuard({
      contextWindow: WINDOW,
      maskKeepRecent: 0,
      summarizer: new ScriptedSummarizer(),
      onCompaction: (record) => void heard.push(record),
    });
    const harness = createHarness({
      window: WINDOW,
      ratio: 1.8,
      script: toolThenAnswerScript(3_000),
      sessionService: store,
      plugins: [guard],
    });
    const session = await startSession(store);
    await harness.runTurns(session.id, 12);

    const reopened = new DatabaseSessionService(`sqlite://${file}`);
    await reopened.init();
    const stored = await storedSession(reopened, session.id);
    const onEvents = stored.events
      .map((event) => decodeCompactionRecord(event.customMetadata?.[COMPACTION_METADATA_KEY]))
      .filter((record): record is CompactionRecord => record !== undefined);

    expect(heard.length).toBeGreaterThan(1);
    expect(onEvents.map((record) => record.id)).toEqual(heard.map((record) => record.id));
    for (const record of onEvents) {
      expect(record.agentName).toBe('worker');
      expect(record.tokensAfter).toBeLessThan(record.tokensBefore);
      expect(record.coveredContents.to).toBeGreaterThan(record.coveredContents.from);
      expect(record.coveredEvents.count).toBeGreaterThan(0);
      expect(stored.events.some((event) => event.id === record.coveredEvents.lastEventId)).toBe(true);
      expect(record.fallback).toBe(false);
    }

    const status = guard.status(stored, 'worker');
    expect(status.compactions).toBe(heard.length);
    expect(status.window).toBe(WINDOW);
    expect(status.estimatedTokens).toBeLessThan(status.threshold!);
    expect(status.percentUsed).toBeGreaterThan(0);
    expect(status.invocations).toBe(12);
    expect(status.lastCompaction?.id).toBe(heard[heard.length - 1]!.id);
    expect(formatContextMeter(status)).toMatch(/^\d+(\.\d)?K?\/8K \(\d+(\.\d)?%\)/);
    expect(guard.status(stored).map((entry) => entry.agentName)).toEqual(['worker']);

    const view = compactionView(stored, 'worker');
    expect(view.records).toHaveLength(heard.length);
    expect(view.replacedEventIds.length).toBeGreaterThan(0);
    expect(view.visibleEventIds.length).toBeGreaterThan(0);
    // Replaced and visible partition the stored events that carry content.
    const withContent = stored.events.filter((event) => event.content?.role).map((event) => event.id);
    expect([...view.replacedEventIds, ...view.visibleEventIds]).toEqual(withContent);
    expect(view.modelView).toContain(view.summary!.text);
    // The last user message is visible, not replaced.
    // (A state-only event, such as a summary prepared in the background, is authored 'user' too, with no content.)
    const lastUser = [...stored.events].reverse().find((event) => event.author === 'user' && event.content)!;
    expect(view.visibleEventIds).toContain(lastUser.id);
    // Original events are untouched: the first tool result still holds its full 3,000-character payload.
    const firstResult = stored.events.find((event) => event.content?.parts?.some((part) => part.functionResponse))!;
    const logs = (firstResult.content!.parts![0]!.functionResponse!.response as { logs: string }).logs;
    expect(logs.length).toBe(3_000);
  });
});
