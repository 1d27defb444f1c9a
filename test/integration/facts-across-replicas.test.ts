/**
 * Review 10: durable facts and their marks across replicas (two Runners and guards on one SQLite
 * `DatabaseSessionService`), records stored before the marks, and a forged record with huge facts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEvent, createEventActions, DatabaseSessionService, type Event } from '@google/adk';
import { afterAll, describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { decodeSummaryRecord, stateKeysFor } from '../../src/internal.js';
import { factsChars } from '../../src/memory/durable-facts.js';
import { logText, ScriptedSummarizer } from '../../src/testing/index.js';
import { callThenAnswer } from '../support/call-then-answer.js';
import { createHarness, errorCodes, runTurn, storedSession, type Harness } from '../support/agent-harness.js';

const folder = mkdtempSync(join(tmpdir(), 'context-guard-r10-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const WINDOW = 8_000;
const KEY = stateKeysFor('worker').summary;
const ORDER = 'Remember: my order id is ORD-7731.';

async function replicas(file: string): Promise<Harness[]> {
  const harnesses: Harness[] = [];
  for (let i = 0; i < 2; i++) {
    const store = new DatabaseSessionService(`sqlite://${join(folder, file)}`);
    await store.init();
    const guard = new ContextGuard({
      contextWindow: WINDOW,
      summarizer: new ScriptedSummarizer(),
      maskKeepRecent: 0,
      prepareTurnsAhead: 0,
    });
    const script = callThenAnswer({
      call: () => undefined,
      answer: ({ request }) => `Noted. ${logText(1_500, request.contents.length)}`,
    });
    harnesses.push(createHarness({ window: WINDOW, ratio: 1.2, script, plugins: [guard], sessionService: store }));
  }
  return harnesses;
}

describe('review 10: durable facts across replicas and stored records', () => {
  it('should keep the mark of a fact written by one replica when the other compacts', async () => {
    const [a, b] = await replicas('marks.db');
    const session = await a!.startSession();
    const events: Event[] = [];
    events.push(...(await runTurn(a!.runner, session.id, ORDER)));
    for (let turn = 0; turn < 30; turn++)
      events.push(...(await runTurn((turn % 2 ? a : b)!.runner, session.id, `Turn ${turn}: next.`)));
    const summary = decodeSummaryRecord((await storedSession(b!.sessionService, session.id)).state[KEY])!;
    expect(summary.compactions).toBeGreaterThanOrEqual(2);
    expect(summary.facts?.find((fact) => fact.text === ORDER)?.asked).toBe(true);
    expect(errorCodes(events)).toEqual([]);
  });

  it('should bound a forged record of huge facts at the next compaction, and send no request over the window', async () => {
    const [a] = await replicas('forged.db');
    const session = await a!.startSession();
    for (let turn = 0; turn < 20; turn++) await runTurn(a!.runner, session.id, `Turn ${turn}: next.`);
    const stored = await storedSession(a!.sessionService, session.id);
    const record = decodeSummaryRecord(stored.state[KEY])!;
    expect(record).toBeDefined();
    const facts = Array.from({ length: 200 }, (_, i) => ({ text: `F-${i} `.repeat(1_000), addedAt: 0, lastSeen: 0 }));
    await a!.sessionService.appendEvent({
      session: stored,
      event: createEvent({
        author: 'user',
        actions: createEventActions({ stateDelta: { [KEY]: { ...record, facts } } }),
      }),
    });
    const events: Event[] = [];
    for (let turn = 20; turn < 40; turn++)
      events.push(...(await runTurn(a!.runner, session.id, `Turn ${turn}: next.`)));
    const after = decodeSummaryRecord((await storedSession(a!.sessionService, session.id)).state[KEY])!;
    expect(after.compactions).toBeGreaterThan(record.compactions);
    expect(errorCodes(events)).toEqual([]);
    expect(a!.model.rejectedRequests).toEqual([]);
    expect(factsChars(after.facts ?? [])).toBeLessThanOrEqual(WINDOW);
  });

  it('should read a summary stored before durable facts, and carry facts from the next compaction on', async () => {
    const [a] = await replicas('old.db');
    const session = await a!.startSession();
    await runTurn(a!.runner, session.id, ORDER);
    for (let turn = 0; turn < 20; turn++) await runTurn(a!.runner, session.id, `Turn ${turn}: next.`);
    const stored = await storedSession(a!.sessionService, session.id);
    const raw = stored.state[KEY] as Record<string, unknown>;
    expect(raw).toBeDefined();
    const { facts: _facts, ...old } = raw;
    await a!.sessionService.appendEvent({
      session: stored,
      event: createEvent({ author: 'user', actions: createEventActions({ stateDelta: { [KEY]: old } }) }),
    });
    const events: Event[] = [];
    for (let turn = 20; turn < 40; turn++)
      events.push(...(await runTurn(a!.runner, session.id, `Turn ${turn}: next.`)));
    expect(errorCodes(events)).toEqual([]);
    const after = decodeSummaryRecord((await storedSession(a!.sessionService, session.id)).state[KEY])!;
    expect(after.compactions).toBeGreaterThan(Number(raw['compactions']));
    expect(after.facts?.length).toBeGreaterThan(0);
  });
});
