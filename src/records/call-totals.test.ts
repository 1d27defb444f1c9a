import { describe, expect, it } from 'vitest';
import { buildCallRecord, CALL_METADATA_KEY, encodeCallRecord, NO_COUNTS, type CallCounts } from './call-record.js';
import { sumCallRecords } from './call-totals.js';
import { COMPACTION_METADATA_KEY } from './compaction-record.js';
import { CHILD_CALLS_METADATA_KEY } from './child-calls.js';

let ids = 0;

/** A model response event of `agentName` carrying the record of one call. */
function callEvent(
  agentName: string,
  invocationId: string,
  counts: Partial<CallCounts>,
  bill?: { promptTokens: number; cachedPromptTokens: number; outputTokens: number; costUsd: number | undefined },
  id = `call-${++ids}`,
  summarizer?: { promptTokens: number; cachedPromptTokens: number; outputTokens: number; costUsd: number | undefined },
) {
  const summary = summarizer && { calls: 1, ...summarizer };
  const record = buildCallRecord(id, agentName, { ...NO_COUNTS, ...counts }, bill, summary)!;
  return { author: agentName, invocationId, customMetadata: { [CALL_METADATA_KEY]: encodeCallRecord(record) } };
}

describe('sumCallRecords', () => {
  it('should sum the records of each agent apart, with its distinct invocations', () => {
    const bill = { promptTokens: 1_000, cachedPromptTokens: 400, outputTokens: 50, costUsd: 0.001 };
    const totals = sumCallRecords([
      { author: 'user', invocationId: 'i1', content: { role: 'user', parts: [{ text: 'hi' }] } },
      callEvent('worker', 'i1', { modelCalls: 1, maskings: 1 }, bill),
      // A compaction's summarizer call rides on the record of the call it served, apart from the call's own usage.
      callEvent('worker', 'i1', { modelCalls: 1, compactions: 1 }, bill, undefined, {
        promptTokens: 3_000,
        cachedPromptTokens: 2_500,
        outputTokens: 200,
        costUsd: 0.0005,
      }),
      callEvent('helper', 'i1', { modelCalls: 1 }, { ...bill, costUsd: undefined }),
      callEvent('worker', 'i2', { modelCalls: 1, rejectedCalls: 1 }),
    ]);
    expect(totals.get('worker')).toEqual({
      invocations: 2,
      modelCalls: 3,
      compactions: 1,
      maskings: 1,
      discardedCompactions: 0,
      droppedPreparations: 0,
      overLimitCalls: 0,
      rejectedCalls: 1,
      retriedCalls: 0,
      budgetLines: 0,
      budgetLineTokens: 0,
      promptTokens: 2_000,
      cachedPromptTokens: 800,
      outputTokens: 100,
      costUsd: 0.0025,
      unpricedCalls: 0,
      summarizerCalls: 1,
      summarizerPromptTokens: 3_000,
      summarizerCachedPromptTokens: 2_500,
      summarizerOutputTokens: 200,
      summarizerCostUsd: 0.0005,
      unpricedSummarizerCalls: 0,
    });
    expect(totals.get('helper')).toMatchObject({ modelCalls: 1, invocations: 1, costUsd: 0, unpricedCalls: 1 });
  });

  it('should count a record once when a copy of its event was appended again', () => {
    const event = callEvent('worker', 'i1', { modelCalls: 1 }, undefined, 'same-call');
    // ADK's thought-pruning compactor re-yields old events; a service that appends rather than upserts keeps both.
    const copy = { ...event, id: 'another-event-id' };
    expect(sumCallRecords([event, copy]).get('worker')?.modelCalls).toBe(1);
  });

  it('should count a background summary once, from whichever of its records comes first', () => {
    const summary = { calls: 1, promptTokens: 3_000, cachedPromptTokens: 2_000, outputTokens: 200, costUsd: 0.0004 };
    const bill = { promptTokens: 1_000, cachedPromptTokens: 0, outputTokens: 50, costUsd: 0.001 };
    // The replica that made it, when it settled (no model call, outside the agent's invocations).
    const settled = {
      author: 'user',
      invocationId: 'context_guard-prepared-1',
      customMetadata: {
        [CALL_METADATA_KEY]: encodeCallRecord(buildCallRecord('s1', 'worker', undefined, undefined, summary, 'p1')!),
      },
    };
    // The call that applied it, turns later, with its own bill.
    const record = buildCallRecord(
      'a1',
      'worker',
      { ...NO_COUNTS, modelCalls: 1, compactions: 1 },
      bill,
      summary,
      'p1',
    );
    const applied = {
      author: 'worker',
      invocationId: 'i2',
      customMetadata: { [CALL_METADATA_KEY]: encodeCallRecord(record!) },
    };
    const unused = {
      ...settled,
      customMetadata: {
        [CALL_METADATA_KEY]: { ...settled.customMetadata[CALL_METADATA_KEY], id: 's2', preparationId: 'p2' },
      },
    };
    for (const events of [
      [settled, applied, unused],
      [applied, settled, unused],
    ]) {
      const totals = sumCallRecords(events).get('worker');
      expect(totals).toMatchObject({ modelCalls: 1, invocations: 1, compactions: 1, promptTokens: 1_000 });
      expect(totals).toMatchObject({ summarizerCalls: 2, summarizerPromptTokens: 6_000, summarizerOutputTokens: 400 });
      expect(totals?.summarizerCostUsd).toBeCloseTo(0.0008, 12);
      expect(totals?.costUsd).toBeCloseTo(0.001 + 0.0008, 12);
    }
    // Two turns at once both applied it (the fifty-third outside trial): two calls, one compaction, billed once.
    const again = {
      ...applied,
      invocationId: 'i3',
      customMetadata: { [CALL_METADATA_KEY]: { ...applied.customMetadata[CALL_METADATA_KEY], id: 'a2' } },
    };
    expect(sumCallRecords([settled, applied, again]).get('worker')).toMatchObject({
      modelCalls: 2,
      compactions: 1,
      summarizerCalls: 1,
      promptTokens: 2_000,
    });
  });

  it("should not let a record on another event, or of another agent, hide a background summary's bill", () => {
    const summary = { calls: 1, promptTokens: 3_000, cachedPromptTokens: 0, outputTokens: 200, costUsd: 0.0004 };
    const encoded = (id: string, agent: string, bill?: typeof summary) =>
      encodeCallRecord(buildCallRecord(id, agent, { ...NO_COUNTS, modelCalls: 1 }, undefined, bill, 'p1')!);
    // A user's message carries whatever customMetadata the app passed with it, a preparation id included.
    const forged = {
      author: 'user',
      invocationId: 'e-1',
      customMetadata: { [CALL_METADATA_KEY]: encoded('f1', 'worker', { ...summary, costUsd: 0 }) },
    };
    // Another agent's own response naming the same preparation: a preparation is one agent's.
    const other = {
      author: 'helper',
      invocationId: 'i1',
      customMetadata: { [CALL_METADATA_KEY]: encoded('f2', 'helper', summary) },
    };
    const settled = {
      author: 'user',
      invocationId: 'context_guard-prepared-1',
      customMetadata: {
        [CALL_METADATA_KEY]: encodeCallRecord(buildCallRecord('s1', 'worker', undefined, undefined, summary, 'p1')!),
      },
    };
    const totals = sumCallRecords([forged, other, settled]);
    // The forged record adds what it says, as any record does; the real bill is still counted.
    expect(totals.get('worker')).toMatchObject({ summarizerCalls: 2, summarizerPromptTokens: 6_000, invocations: 1 });
    expect(totals.get('worker')?.summarizerCostUsd).toBeCloseTo(0.0004, 12);
    expect(totals.get('helper')).toMatchObject({ summarizerCalls: 1, summarizerPromptTokens: 3_000 });
  });

  it('should skip partial events, garbled records, and events that are not records of the guard', () => {
    const partial = { ...callEvent('worker', 'i1', { modelCalls: 1 }), partial: true };
    const totals = sumCallRecords([
      partial,
      null,
      'event',
      { customMetadata: 'garbled' },
      { customMetadata: { [CALL_METADATA_KEY]: 'garbled' } },
      { customMetadata: { [CALL_METADATA_KEY]: { modelCalls: 5 } } },
      { customMetadata: { [COMPACTION_METADATA_KEY]: { agentName: 'worker', id: 'c1' } } },
      // ADK's own compaction event: author system, no record of the guard.
      { author: 'system', invocationId: '', isCompacted: true, compactedContent: { role: 'model', parts: [] } },
    ]);
    expect(totals.size).toBe(0);
  });

  it("should count an AgentTool child's records on the answer of its call as events of the child, each once", () => {
    const bill = { promptTokens: 2_000, cachedPromptTokens: 0, outputTokens: 40, costUsd: 0.002 };
    const childCall = (invocationId: string, id: string) => ({
      invocationId,
      record: callEvent('researcher', invocationId, { modelCalls: 1 }, bill, id).customMetadata[CALL_METADATA_KEY],
    });
    const answer = (calls: unknown, extra: object = {}) => ({
      author: 'coordinator',
      invocationId: 'parent',
      customMetadata: { [CHILD_CALLS_METADATA_KEY]: calls },
      ...extra,
    });
    const totals = sumCallRecords([
      callEvent('coordinator', 'parent', { modelCalls: 1 }, bill),
      answer([childCall('child-1', 'r1'), childCall('child-1', 'r2')]),
      // The other turn's run of the child: its own answer, its own invocation; one record seen before counts once.
      answer([childCall('child-2', 'r3'), childCall('child-1', 'r2'), { invocationId: 7 }, 'garbled']),
      // A streamed copy is never stored; another process's records (A2A) are counted there.
      answer([childCall('child-3', 'r4')], { partial: true }),
      answer([], { customMetadata: { 'a2a:task_id': 't', [CHILD_CALLS_METADATA_KEY]: [childCall('child-4', 'r5')] } }),
      answer('not a list'),
    ]);
    expect(totals.get('researcher')).toMatchObject({
      modelCalls: 3,
      invocations: 2,
      promptTokens: 6_000,
      costUsd: 0.006,
    });
    expect(totals.get('coordinator')).toMatchObject({ modelCalls: 1, invocations: 1 });
  });

  it('should count nothing for a session without events', () => {
    for (const events of [undefined, null, {}, 'events', []]) expect(sumCallRecords(events).size).toBe(0);
  });

  it("should leave out the records on an event ADK's A2A client made (a remote server's calls) and count a replica's", () => {
    const remote = callEvent('analyst', 'i1', { modelCalls: 1 });
    const totals = sumCallRecords([
      callEvent('boss', 'i1', { modelCalls: 1 }),
      { ...remote, customMetadata: { ...remote.customMetadata, 'a2a:task_id': 't1', 'a2a:context_id': 'c1' } },
      // Another replica's record of the same app: written by that replica, no mark of A2A.
      callEvent('analyst', 'i2', { modelCalls: 1 }),
    ]);
    expect(totals.get('boss')?.modelCalls).toBe(1);
    expect(totals.get('analyst')?.modelCalls).toBe(1);
    expect(totals.get('analyst')?.invocations).toBe(1);
  });
});
