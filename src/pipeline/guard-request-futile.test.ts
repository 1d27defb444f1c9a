/** guardRequest and a compaction that cannot make the request fit (see trigger/futile-compaction.ts). */
import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { functionCall, functionResponse, modelText, testPolicy, userText } from '../../test/support/builders.js';
import { CALIBRATED_USAGE, guardInput } from '../../test/support/guard-input.js';
import type { SummaryOutcome } from '../summary/summarizer.js';
import type { SummaryRecord } from '../summary/stored-summary.js';
import type { UsageRecord } from '../usage/stored-usage.js';
import { guardRequest } from '../pipeline/guard-request.js';

function turn(n: number, size: number): Content[] {
  return [userText(`request ${n} `.padEnd(size, 'x')), modelText(`answer ${n} `.padEnd(size, 'y'))];
}

function run(
  contents: Content[],
  usage: UsageRecord,
  summary: SummaryRecord | undefined,
  fixedTokens: number,
  onSummarize: () => void,
): ReturnType<typeof guardRequest> {
  const input = guardInput({
    contents,
    fixedTokens,
    summary,
    usage,
    summarize: async (): Promise<SummaryOutcome> => {
      onSummarize();
      return { ok: true, text: 'The user asked for several things; all done.', truncated: false };
    },
  });
  return guardRequest(input);
}

describe('guardRequest with a fixed part over the threshold', () => {
  it('should call the summarizer once, hold back while little arrives, and try again once enough new content did', async () => {
    // 5,600 fixed tokens x 1.5 = 8,400: over the 8,000 threshold whatever the contents.
    const fixed = 5_600;
    let calls = 0;
    const history: Content[] = [...turn(1, 200), ...turn(2, 200), userText('current request 3')];
    const first = await run(history, CALIBRATED_USAGE, undefined, fixed, () => calls++);
    expect(calls).toBe(1);
    expect(first.state.usage.futileCompaction).toMatchObject({ window: 10_000, fixedTokens: fixed, correction: 1.5 });

    // One more short turn (well under 5% of the window): no summarizer call, the record stays.
    const grown = [...history, modelText('short answer'), userText('current request 4')];
    const second = await run(grown, first.state.usage, first.newSummary, fixed, () => calls++);
    expect(calls).toBe(1);
    expect(second.compaction).toBeUndefined();
    expect(second.state.usage.futileCompaction).toEqual(first.state.usage.futileCompaction);

    // 600 more tokens (over 5% of 10,000): worth a summary again.
    const more = [...grown, modelText('long answer '.padEnd(600, 'z')), userText('current request 5')];
    await run(more, second.state.usage, first.newSummary, fixed, () => calls++);
    expect(calls).toBe(2);

    // A smaller fixed part that still leaves no room under the threshold: nothing tried under the hard limit.
    await run(grown, second.state.usage, first.newSummary, fixed - 100, () => calls++);
    expect(calls).toBe(2);
    // One that leaves a summary's worth of room could make it help: tried at once.
    await run(more, second.state.usage, first.newSummary, 4_800, () => calls++);
    expect(calls).toBe(3);
  });

  it('should clear the record once a compaction fits, and count every over-limit call but flag only the first of a cause', async () => {
    const contents = [...turn(1, 200), userText('current request')];
    const over1 = await run(contents, CALIBRATED_USAGE, undefined, 20_000, () => undefined);
    expect({ overLimit: over1.overLimit !== undefined, newCause: over1.overLimitNewCause }).toEqual({
      overLimit: true,
      newCause: true,
    });
    const over2 = await run(contents, over1.state.usage, over1.newSummary, 20_000, () => undefined);
    expect({
      overLimit: over2.overLimit !== undefined,
      newCause: over2.overLimitNewCause,
      counted: over2.state.usage.overLimitCalls,
    }).toEqual({ overLimit: true, newCause: false, counted: 2 });
    const other = await run(contents, over2.state.usage, over2.newSummary, 30_000, () => undefined);
    expect(other.overLimitNewCause).toBe(true);

    // A compaction that fits (a small fixed part, a big history) clears it.
    const big = [...turn(1, 3_000), ...turn(2, 3_000), userText('current request')];
    const fits = await run(big, other.state.usage, undefined, 500, () => undefined);
    expect(fits.compaction).toBeDefined();
    expect(fits.state.usage.futileCompaction).toBeUndefined();
  });
});

describe('guardRequest on the sliding window, with a scheduled summary that would grow the request', () => {
  it('should call the summarizer once for the same completed turns, and again once the span it covers doubled', async () => {
    const policy = testPolicy({ strategy: 'sliding-window', invocationThreshold: 1, overlapSize: 0 });
    let calls = 0;
    const run = (contents: Content[], usage: UsageRecord) =>
      guardRequest(
        guardInput({
          contents,
          policy,
          usage,
          summarize: async (): Promise<SummaryOutcome> => {
            calls++;
            // Longer than the turns it covers: the request would grow, so it is not kept.
            return { ok: true, text: 'A summary longer than what it covers. '.repeat(20), truncated: false };
          },
        }),
      );
    const history: Content[] = [...turn(1, 40), ...turn(2, 40), userText('current request 3')];
    const first = await run(history, CALIBRATED_USAGE);
    expect(calls).toBe(1);
    expect(first.compaction).toBeUndefined();
    expect(first.state.usage.discardedCompactions).toBe(1);
    // Billed all the same: the shell counts its summarizer call (adk/hooks/apply-result.ts).
    expect(first.discardedSummarizer).toMatchObject({ fallback: false });
    // A tool step of the same turn: the same completed turns, no second summarizer call.
    const step = [...history, functionCall('lookup', { q: 'x' }), functionResponse('lookup', { found: 'y' })];
    const second = await run(step, first.state.usage);
    expect(calls).toBe(1);
    // Another turn completed: still held, the span it would cover has not doubled (the thirty-second outside trial:
    // tried after every turn, 18 of 21 scheduled summaries of a 40-turn session were discarded).
    const next = [...history, modelText('answer 3'), userText('current request 4')];
    const third = await run(next, second.state.usage);
    expect(calls).toBe(1);
    // Two completed turns became four: tried again, and once more only at eight.
    const doubled = [...next, modelText('answer 4'), userText('current request 5')];
    const fourth = await run(doubled, third.state.usage);
    expect(calls).toBe(2);
    let later = doubled;
    let usage = fourth.state.usage;
    for (let turnNumber = 5; turnNumber <= 8; turnNumber++) {
      later = [...later, modelText(`answer ${turnNumber}`), userText(`current request ${turnNumber + 1}`)];
      usage = (await run(later, usage)).state.usage;
      expect(calls).toBe(turnNumber < 8 ? 2 : 3);
    }
  });
});
