/**
 * Corrupted, foreign and stale values in the guard's state keys, through a
 * real Runner. State comes from a database and may hold anything: strings,
 * NaN, negative or huge numbers, arrays, records of an older version, a
 * summary copied from another session, a watermark that no longer matches the
 * history. Documented behaviour:
 * - an unreadable usage record is read as "nothing learned yet" and rewritten
 *   on the next call; implausible numbers inside it are ignored field by field;
 *   either is warned about once, naming the fields (learned-limits.test.ts
 *   covers the learned window, correction, counters and marks);
 * - an unreadable summary record is ignored with one warning and the full
 *   history is sent (nothing is stripped on a guess);
 * - a summary whose watermark does not match the history is not applied: one
 *   warning, the record is cleared, the full history is sent, and a fresh
 *   compaction follows when the history needs one;
 * - an unreadable last-compaction record only affects `status()`, which
 *   still answers; the next compaction replaces it.
 * Never a crashed turn, never an error log, never an oversized request.
 */
import { createEvent, createEventActions, LogLevel, setLogLevel } from '@google/adk';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { SUMMARY_MARKER, decodeSummaryRecord, decodeUsageRecord, stateKeysFor } from '../../src/internal.js';
import { encodeRecord } from '../../src/state/codec.js';
import { contentsText } from '../../src/testing/index.js';
import { FAULT_APP, FAULT_USER, faultHarness, sentTexts, type FaultHarness } from '../support/fault-harness.js';
import { summaryRecord } from '../support/builders.js';

setLogLevel(LogLevel.ERROR);

const keys = stateKeysFor('worker');
const STATE_WARNING = 'out-of-range values in state';
let badInputs = 0;
afterAll(() => console.log(`[faults] corrupted or foreign state values: ${badInputs}`));

/** After a few turns on corrupted state: nothing crashed, nothing oversized, the records the guard now holds are its own and decode exactly. */
async function expectRecovered(h: FaultHarness, turns: number): Promise<void> {
  for (let turn = 1; turn <= turns; turn++) {
    const outcome = await h.turn(`Turn ${turn}: fetch the document and compare it with the last one.`);
    expect(outcome.thrown).toBeUndefined();
    expect(outcome.errorCodes).toEqual([]);
  }
  expect(h.overWindow().map((request) => request.promptTokens)).toEqual([]);
  expect(h.shapeProblems()).toEqual([]);
  expect(h.logger.atOrAbove('error')).toEqual([]);
  const state = await h.state();
  const usage = state[keys.usage];
  expect(isDeepStrictEqual(encodeRecord(decodeUsageRecord(usage)), usage)).toBe(true);
  const summary = state[keys.summary];
  // A record the guard wrote decodes exactly (an unreadable one it was given may still sit there until the next compaction).
  const decoded = decodeSummaryRecord(summary);
  if (decoded) expect(isDeepStrictEqual(encodeRecord(decoded), summary)).toBe(true);
  // status() answers with finite numbers whatever the state held.
  const status = h.guard.status({ state }, 'worker');
  for (const value of Object.values(status)) if (typeof value === 'number') expect(Number.isFinite(value)).toBe(true);
}

/** Each value, and whether it holds something out of range (warned about once) or only what a round trip leaves. */
const CORRUPTED_USAGE: Array<[string, unknown, boolean]> = [
  ['a plain string', 'garbage', true],
  ['a broken JSON string', '{"modelCalls": 5', true],
  ['NaN', Number.NaN, true],
  ['a negative number', -1, true],
  ['a huge number', 1e308, true],
  ['an array', [1, 2, 3], true],
  ['a boolean', true, true],
  [
    'an object from an older version',
    { version: 0, tokens: 1_234, lastSummaryAt: '2020-01-01', history: [{ role: 'user' }] },
    // None of its fields is one the guard reads.
    false,
  ],
  [
    'fields of the wrong types',
    {
      modelCalls: 'NaN',
      compactions: -3,
      lastEstimate: 0,
      learnedCorrection: 1e9,
      forceCompaction: 'yes',
      window: 'big',
      invocations: [],
    },
    true,
  ],
  [
    'numbers as strings (a JSON round trip)',
    {
      modelCalls: '4',
      compactions: '1',
      realPromptTokens: '2100',
      lastEstimate: '1400',
      sentEstimate: '1400',
      learnedCorrection: '1.5',
    },
    false,
  ],
  [
    'negative and non-finite counts',
    { realPromptTokens: -500, lastEstimate: Number.POSITIVE_INFINITY, sentEstimate: Number.NaN, overLimitCalls: -1 },
    true,
  ],
];

const CORRUPTED_SUMMARY: Array<[string, unknown]> = [
  ['a plain string', 'garbage'],
  ['NaN', Number.NaN],
  ['a negative number', -42],
  ['an array', ['summary', 3]],
  ['an object from an older version', { version: 0, summary: 'The user wants the report.', watermark: 3 }],
  ['an empty text', { text: '', covered: 2, anchor: 'a|b' }],
  ['a negative watermark', { text: 'Summary.', covered: -4, anchor: '^|x' }],
  ['a watermark of the wrong type', { text: 'Summary.', covered: 'two', anchor: '^|x' }],
  ['an anchor of the wrong type', { text: 'Summary.', covered: 2, anchor: 17 }],
];

const CORRUPTED_LAST_COMPACTION: Array<[string, unknown]> = [
  ['a plain string', 'garbage'],
  ['an array', [{ id: 1 }]],
  ['an object of the wrong shape', { id: 5, tokensBefore: 'many' }],
];

describe('corrupted usage records', () => {
  it.each(CORRUPTED_USAGE)('should treat %s as nothing learned yet and rewrite it', async (_label, value, warns) => {
    badInputs++;
    const h = await faultHarness({ state: { [keys.usage]: value } });
    await expectRecovered(h, 3);
    const usage = await h.usage();
    expect(usage.modelCalls).toBeGreaterThanOrEqual(h.model.requests.length);
    // Out-of-range values: one warning over three turns (the record is rewritten without them), naming no value.
    expect(h.logger.matching(STATE_WARNING)).toHaveLength(warns ? 1 : 0);
  });

  it('should ignore an implausibly large real count instead of compacting on every turn', async () => {
    badInputs++;
    // 9e15 tokens for a 1-token estimate: a foreign or corrupted value. Without usage reports it would never be replaced.
    const h = await faultHarness({
      reportUsage: false,
      toolChars: 0,
      state: { [keys.usage]: { realPromptTokens: 9e15, lastEstimate: 1, sentEstimate: 1, modelCalls: 3 } },
    });
    await expectRecovered(h, 5);
    // Five small turns (each well under the 8k window) need no compaction at all.
    expect(h.records).toEqual([]);
    expect((await h.usage()).learnedCorrection ?? 1).toBeLessThan(5);
  });
});

describe('corrupted summary records', () => {
  it.each(CORRUPTED_SUMMARY)('should ignore %s with a warning and send the full history', async (_label, value) => {
    badInputs++;
    const h = await faultHarness({ state: { [keys.summary]: value } });
    await expectRecovered(h, 3);
    expect(h.logger.matching('unreadable summary record').length).toBeGreaterThan(0);
    // Nothing was stripped: the first request is the user's message as typed.
    expect(h.model.requests[0]?.contents[0]?.parts?.[0]?.text).toMatch(/^Turn 1:/);
    // A compaction later replaces it with a record of the guard's own.
    await h.turnsUntilCompaction();
    expect(await h.summary()).toBeDefined();
  });

  it('should warn once about an unreadable summary record and clear it, not warn on every model call', async () => {
    badInputs++;
    const h = await faultHarness({ state: { [keys.summary]: 'garbage' } });
    await expectRecovered(h, 3);
    // Three turns are six model calls; like a discarded watermark, the record should be cleared after the first warning.
    expect(h.logger.matching('unreadable summary record')).toHaveLength(1);
    expect((await h.state())[keys.summary]).toBeNull();
  });
});

describe("a summary record's durable facts edited by hand", () => {
  const FACT = 'My order id is ORD-55821-XK.';

  /** A compaction that kept the fact, then the stored facts replaced by `edit` of them, then one more turn. */
  async function afterEdit(edit: (facts: unknown[]) => unknown) {
    const h = await faultHarness();
    await h.turn(`${FACT} Fetch the document.`);
    await h.turnsUntilCompaction();
    const stored = (await h.state())[keys.summary] as Record<string, unknown>;
    expect(JSON.stringify(stored['facts'])).toContain('ORD-55821-XK');
    const session = await h.sessionService.getSession({
      appName: FAULT_APP,
      userId: FAULT_USER,
      sessionId: h.sessionId,
    });
    const edited = { ...stored, facts: edit(stored['facts'] as unknown[]) };
    const actions = createEventActions({ stateDelta: { [keys.summary]: edited } });
    await h.sessionService.appendEvent({ session: session!, event: createEvent({ author: 'user', actions }) });
    const before = h.model.requests.length;
    const outcome = await h.turn('What is my order id?');
    expect(outcome.errorCodes).toEqual([]);
    return { h, next: h.model.requests.slice(before).map((request) => contentsText(request.contents)) };
  }

  it('should read facts stored as plain strings as facts', async () => {
    const { h, next } = await afterEdit((facts) => facts.map((fact) => (fact as { text: string }).text));
    expect(next.join('\n')).toContain('ORD-55821-XK');
    expect(h.logger.matching('unreadable summary record')).toEqual([]);
  });

  it('should not apply a summary whose facts it cannot read, and send the message that stated them', async () => {
    badInputs++;
    const { h, next } = await afterEdit(() => ({ order: 'ORD-55821-XK' }));
    expect(h.logger.matching('unreadable summary record')).toHaveLength(1);
    // The record is cleared and the whole history sent: the user's message with the fact is in it again.
    expect(next[0]).toContain(FACT);
  });
});

describe('corrupted last-compaction records', () => {
  it.each(CORRUPTED_LAST_COMPACTION)(
    'should keep status() answering on %s and replace it at the next compaction',
    async (_label, value) => {
      badInputs++;
      const h = await faultHarness({ state: { [keys.lastCompaction]: value } });
      await expectRecovered(h, 2);
      await h.turnsUntilCompaction();
      expect(h.records.length).toBeGreaterThan(0);
      const status = h.guard.status({ state: await h.state() }, 'worker');
      expect(status.lastCompaction?.id).toBe(h.records[h.records.length - 1]?.id);
    },
  );
});

describe('watermarks that no longer match the history', () => {
  it('should not apply a summary whose anchor matches nothing: full history, one warning, then a fresh compaction', async () => {
    badInputs++;
    const planted = 'PLANTED-SUMMARY: the user asked about invoice 1234.';
    const h = await faultHarness({
      state: {
        [keys.summary]: summaryRecord({
          text: planted,
          covered: 2,
          anchor: 'bogus|anchor',
          compactions: 7,
          createdAt: 1,
        }),
      },
    });
    await expectRecovered(h, 1);
    const [discarded, ...more] = h.logger.matching('stored summary not applied');
    expect(more).toEqual([]);
    // Under the threshold nothing is compacted in that call: the whole history is sent, which is worth a warning.
    expect(discarded?.level).toBe('warn');
    expect(discarded?.message).toContain('Sending the full history');
    expect(sentTexts(h.model).some((text) => text.includes(planted))).toBe(false);
    expect((await h.state())[keys.summary]).toBeNull();
    await h.turnsUntilCompaction();
    const summary = await h.summary();
    // A fresh chain: the planted record's count was not continued, and its text was not carried forward.
    expect(summary?.compactions).toBe(1);
    expect(summary?.text).not.toContain('PLANTED');
    expect(h.logger.matching('stored summary not applied')).toHaveLength(1);
  });

  it('should not apply a watermark beyond the end of the history', async () => {
    badInputs++;
    const h = await faultHarness({
      state: {
        [keys.summary]: summaryRecord({
          text: 'Summary of 900 messages.',
          covered: 900,
          anchor: '^|x',
          compactions: 3,
          createdAt: 1,
        }),
      },
    });
    await expectRecovered(h, 2);
    expect(h.logger.matching('stored summary not applied')).toHaveLength(1);
  });

  it('should not apply a summary copied from another session (same agent, different history)', async () => {
    badInputs++;
    const source = await faultHarness();
    await source.turnsUntilCompaction();
    const copied = (await source.state())[keys.summary];
    expect(decodeSummaryRecord(copied)).toBeDefined();
    const target = await faultHarness({ state: { [keys.summary]: copied } });
    await expectRecovered(target, 2);
    expect(target.logger.matching('stored summary not applied')).toHaveLength(1);
    expect(sentTexts(target.model).some((text) => text.startsWith(SUMMARY_MARKER))).toBe(false);
  });

  it('should keep requests inside the window when a stored summary was tampered to be larger than the window', async () => {
    badInputs++;
    const h = await faultHarness();
    await h.turnsUntilCompaction();
    const session = (await h.sessionService.getSession({
      appName: FAULT_APP,
      userId: FAULT_USER,
      sessionId: h.sessionId,
    }))!;
    const record = decodeSummaryRecord(session.state[keys.summary])!;
    // Another program rewrote the text (same watermark and anchor): 100k characters, about 4x the window.
    await h.sessionService.appendEvent({
      session,
      event: createEvent({
        author: 'user',
        actions: createEventActions({
          stateDelta: { [keys.summary]: { ...record, text: 'Tampered summary line. '.repeat(4_500) } },
        }),
      }),
    });
    await expectRecovered(h, 3);
  });
});
