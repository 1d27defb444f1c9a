/**
 * A masking for room that starts past the oldest tool result, on ADK's DatabaseSessionService
 * (SQLite in a file): the first masking of the cycle keeps the head the provider cached (a long
 * first answer puts the later results past the cacheable minimum), its start is stored with the
 * mask, and after a restart on the same database a later masking extends the same record, still
 * sending every content before the start as it was.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSessionService } from '@google/adk';
import type { Content } from '@google/genai';
import { afterAll, describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { stateKeysFor } from '../../src/internal.js';
import { decodeMaskRecord } from '../../src/masking/mask-record.js';
import { logText, ScriptedSummarizer } from '../../src/testing/index.js';
import { callThenAnswer } from '../support/call-then-answer.js';
import { createHarness, type Harness } from '../support/agent-harness.js';

const WINDOW = 16_000;
const keys = stateKeysFor('worker');
const folder = mkdtempSync(join(tmpdir(), 'context-guard-mask-start-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function openDatabase(file: string): Promise<DatabaseSessionService> {
  const service = new DatabaseSessionService(`sqlite://${file}`);
  await service.init();
  return service;
}

/** Each turn fetches 3,000 characters of logs; the first answer is long (a report the later turns build on). */
const script = callThenAnswer({
  call: ({ request }) => ({ name: 'fetch_logs', args: { size: 3_000, seed: request.contents.length + 1 } }),
  answer: ({ request }) =>
    `Report ${request.contents.length}: ${logText(request.contents.length <= 3 ? 16_000 : 300, request.contents.length)}`,
});

/** One process's guarded agent on `store`; masking for cost is off, so every masking here is for room. */
function guardedOn(store: DatabaseSessionService): Harness {
  const guard = new ContextGuard({
    contextWindow: WINDOW,
    summarizer: new ScriptedSummarizer(),
    maskStaleOutputTokens: 0,
    prepareTurnsAhead: 0,
  });
  return createHarness({ window: WINDOW, ratio: 1.8, script, sessionService: store, plugins: [guard] });
}

const json = (contents: readonly Content[]): string[] => contents.map((content) => JSON.stringify(content));

describe('a masking that keeps the cached head, on SQLite', () => {
  it('should store its start, keep it after a restart, and extend the same record on a later masking', async () => {
    const file = join(folder, 'sessions.sqlite');
    const first = guardedOn(await openDatabase(file));
    const session = await first.startSession();
    let turns = 0;
    let mask = decodeMaskRecord(undefined);
    while (mask === undefined && turns < 30) {
      await first.runTurns(session.id, ++turns, { from: turns });
      mask = decodeMaskRecord((await first.storedSession(session.id)).state[keys.mask]);
    }
    expect(first.model.rejectedRequests).toEqual([]);
    expect(mask?.start).toBeGreaterThan(0);
    const start = mask?.start ?? 0;
    // The masking's call sent the head before the start as the call before it did: the cached prefix.
    const requests = first.model.requests;
    const masked = requests[requests.length - 2]?.contents ?? [];
    const previous = requests[requests.length - 3]?.contents ?? [];
    expect(json(masked.slice(0, start))).toEqual(json(previous.slice(0, start)));
    expect(json(masked.slice(start, mask?.upTo))).not.toEqual(json(previous.slice(start, mask?.upTo)));

    // Restart: a new database handle, Runner and plugin on the same file.
    const second = guardedOn(await openDatabase(file));
    let later = mask;
    while (later?.maskings === mask?.maskings && turns < 60)
      await second.runTurns(session.id, ++turns, { from: turns }).then(async () => {
        later = decodeMaskRecord((await second.storedSession(session.id)).state[keys.mask]);
      });
    expect(second.model.rejectedRequests).toEqual([]);
    expect(later?.maskings).toBe((mask?.maskings ?? 0) + 1);
    expect(later?.upTo).toBeGreaterThan(mask?.upTo ?? 0);
    expect(later?.start).toBe(start);
    // Every call after the restart still sent the contents before the start unmasked.
    const firstSent = json(second.model.requests[0]?.contents.slice(0, start) ?? []);
    for (const request of second.model.requests) expect(json(request.contents.slice(0, start))).toEqual(firstSent);
  });
});
