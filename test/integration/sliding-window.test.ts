/**
 * The sliding-window strategy through a real Runner: compaction on its turn
 * schedule, the overlap turns kept verbatim in every later request, the token
 * trigger, and the max-compactions guard.
 */
import { describe, expect, it } from 'vitest';
import { ContextGuard, type CompactionRecord, type ContextGuardOptions } from '../../src/index.js';
import { SUMMARY_MARKER, decodeUsageRecord, stateKeysFor } from '../../src/internal.js';
import { type RecordedRequest, ScriptedSummarizer } from '../../src/testing/index.js';
import { createHarness, toolThenAnswerScript } from '../support/agent-harness.js';

const keys = stateKeysFor('worker');

function userTexts(request: RecordedRequest): string[] {
  return request.contents
    .filter((content) => content.role === 'user')
    .flatMap((content) => content.parts ?? [])
    .map((part) => part.text ?? '')
    .filter((text) => text.startsWith('Turn '));
}

/** An agent whose tool returns `toolChars` characters, under the sliding-window strategy with `options`. */
function slidingWindow(window: number, toolChars: number, options: ContextGuardOptions) {
  const records: CompactionRecord[] = [];
  const guard = new ContextGuard({
    contextWindow: window,
    strategy: 'sliding-window',
    summarizer: new ScriptedSummarizer(),
    onCompaction: (record) => void records.push(record),
    ...options,
  });
  const harness = createHarness({ window, ratio: 1.8, script: toolThenAnswerScript(toolChars), plugins: [guard] });
  return { harness, records };
}

describe('sliding-window strategy', () => {
  it('should compact every theta turns and keep the omega overlap turns verbatim in every later request', async () => {
    const { harness, records } = slidingWindow(200_000, 500, { invocationThreshold: 3, overlapSize: 2 });
    const session = await harness.startSession();
    await harness.runTurns(session.id, 12);

    // Plenty of room: every compaction comes from the schedule, not from tokens.
    expect(records.length).toBeGreaterThanOrEqual(2);
    expect(records.every((record) => record.reason === 'schedule')).toBe(true);
    // First compaction when theta + omega = 5 turns have completed, i.e. on turn 6.
    const firstCompacting = harness.model.requests.findIndex((request) =>
      request.contents[0]?.parts?.[0]?.text?.startsWith(SUMMARY_MARKER),
    );
    expect(userTexts(harness.model.requests[firstCompacting]!)).toEqual([
      'Turn 4: check the logs.',
      'Turn 5: check the logs.',
      'Turn 6: check the logs.',
    ]);
    // Every request after it carries the summary and still holds the kept turns until they are summarized themselves.
    for (const request of harness.model.requests.slice(firstCompacting)) {
      expect(request.contents[0]?.parts?.[0]?.text?.startsWith(SUMMARY_MARKER)).toBe(true);
      const turns = userTexts(request).map((text) => Number(/Turn (\d+)/.exec(text)![1]));
      const newest = Math.max(...turns);
      // The tail is contiguous and always includes at least the omega turns before the newest one.
      expect(turns).toEqual(Array.from({ length: turns.length }, (_, i) => newest - turns.length + 1 + i));
      expect(turns.length).toBeGreaterThanOrEqual(3);
    }
    expect(harness.model.rejectedRequests).toEqual([]);
  });

  it('should stop scheduled compactions after maxCompactions', async () => {
    const { harness } = slidingWindow(200_000, 200, { invocationThreshold: 1, overlapSize: 0, maxCompactions: 2 });
    const stored = await harness.sessionAfterTurns(8);
    expect(decodeUsageRecord(stored.state[keys.usage]).compactions).toBe(2);
  });

  it('should compact early on the token trigger and never overflow a small window', async () => {
    // The token trigger's summaries: masking alone would make room in this session.
    const { harness, records } = slidingWindow(8_000, 3_000, { invocationThreshold: 50, maskKeepRecent: 0 });
    const session = await harness.startSession();
    await harness.runTurns(session.id, 15);
    expect(records.length).toBeGreaterThan(0);
    expect(records.some((record) => record.reason === 'safety-ratio' || record.reason === 'threshold')).toBe(true);
    expect(records.some((record) => record.reason === 'schedule')).toBe(false);
    expect(harness.model.rejectedRequests).toEqual([]);
  });
});
