/**
 * A system prompt that takes most of the window: no compaction can bring the
 * request under the threshold. The guard must not call the summarizer on
 * every model call for nothing, nor warn on every call: it retries only when
 * something changed that could make a compaction help (enough new content,
 * the window, the fixed part, the calibration), and warns once per cause.
 */
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { ScriptedSummarizer, contentsText, type ModelScript } from '../../src/testing/index.js';
import { createHarness, errorCodes, runTurn } from '../support/agent-harness.js';
import { faultHarness } from '../support/fault-harness.js';

/** `steps` calls of `fetch_logs` with 2 KB results, counted by calls (compactions remove steps), then the answer. */
function loopOf(steps: number): ModelScript {
  let step = 0;
  return () => {
    if (step >= steps) return { content: { role: 'model', parts: [{ text: 'Done.' }] } };
    step++;
    return {
      content: { role: 'model', parts: [{ functionCall: { name: 'fetch_logs', args: { size: 2_000, seed: step } } }] },
    };
  };
}

// ~5,150 o200k tokens, ~6,700 real at the harness's ratio of 1.3: about 84% of the 8,000 window, above the 80% threshold.
const LARGE_INSTRUCTION = 'Follow the operating procedures exactly. '.repeat(800);
const TURNS = 30;

describe('futile compaction', () => {
  it('should not call the summarizer on every call when the system prompt alone is over the threshold', async () => {
    const h = await faultHarness({ instruction: LARGE_INSTRUCTION, toolChars: 300 });
    for (let turn = 1; turn <= TURNS; turn++) {
      const outcome = await h.turn(`Turn ${turn}: please help.`);
      expect(outcome.thrown).toBeUndefined();
    }
    const modelCalls = h.model.requests.length;
    expect(modelCalls).toBeGreaterThanOrEqual(2 * TURNS);
    // Every call is over the threshold; a summarizer call is only worth it once enough new content has arrived.
    expect(h.summarizer.calls.length).toBeLessThanOrEqual(TURNS / 2);
    expect(h.model.rejectedRequests).toHaveLength(0);
    expect(h.shapeProblems()).toEqual([]);
  });

  it("should not fire the sliding window's safety ratio on every call when the fixed part alone is over it", async () => {
    // ~4,400 real tokens of 6,000 (73%): over the 70% safety ratio, under the 80% threshold.
    const h = await faultHarness({
      window: 6_000,
      instruction: 'Follow the operating procedures exactly. '.repeat(520),
      toolChars: 300,
      guard: { strategy: 'sliding-window' },
    });
    for (let turn = 1; turn <= TURNS; turn++) await h.turn(`Turn ${turn}: please help.`);
    expect(h.model.requests.length).toBeGreaterThanOrEqual(2 * TURNS);
    expect(h.records.filter((record) => record.reason === 'safety-ratio').length).toBeLessThanOrEqual(TURNS / 3);
    expect(h.model.rejectedRequests).toHaveLength(0);
  });

  it('should call the summarizer at most once in 15 turns when the system prompt and tools alone are over the window', async () => {
    // ~16k o200k tokens of system prompt: every request is rejected, and no summary can change that.
    const h = await faultHarness({
      instruction: 'Follow the operating procedures exactly. '.repeat(2_500),
      toolChars: 300,
    });
    for (let turn = 1; turn <= 15; turn++) expect((await h.turn(`Turn ${turn}: please help.`)).thrown).toBeUndefined();
    expect(h.model.rejectedRequests.length).toBe(h.model.requests.length);
    // Before: every rejection forced a compaction that could not help (5 summarizer calls in 15 turns).
    expect(h.summarizer.calls.length).toBeLessThanOrEqual(1);
  });

  it('should compact again only at the hard limit, not for growth, when the fixed part alone is over the threshold', async () => {
    const h = await faultHarness({ instruction: LARGE_INSTRUCTION, toolChars: 0 });
    for (let turn = 1; turn <= TURNS; turn++) await h.turn(`Turn ${turn}: please help.`);
    const { hardLimit } = await h.usage();
    expect(h.records.length).toBeGreaterThanOrEqual(2);
    // After the first futile attempt, only a request that would otherwise cross the hard limit is worth a summary.
    const early = h.records.slice(1).filter((record) => record.tokensBefore <= (hardLimit ?? 0));
    expect(early.map((record) => record.tokensBefore)).toEqual([]);
    expect(h.model.rejectedRequests).toHaveLength(0);
  });

  it('should let the request run on to the hard limit when the system prompt leaves under the threshold less room than a summary waits for', async () => {
    // The nineteenth outside trial: a policy prompt at 75% of an 8k window was summarized every two or three calls.
    // ~4,700 o200k tokens, ~6,100 real at 1.3: 300 under the 6,400 threshold, less than the 400 (5%) a summary waits for.
    const h = await faultHarness({
      instruction: 'Follow the operating procedures exactly. '.repeat(728),
      toolChars: 200,
    });
    for (let turn = 1; turn <= TURNS; turn++)
      expect((await h.turn(`Turn ${turn}: please help.`)).thrown).toBeUndefined();
    const { hardLimit } = await h.usage();
    expect(h.records.length).toBeGreaterThanOrEqual(1);
    // Each summary is made where the request would otherwise cross the hard limit, none at the threshold.
    expect(h.records.filter((record) => record.tokensBefore <= (hardLimit ?? 0)).map((r) => r.tokensBefore)).toEqual(
      [],
    );
    expect(h.model.rejectedRequests).toHaveLength(0);
    expect(h.shapeProblems()).toEqual([]);
  });

  it("should keep the user's task and warn once when the fixed part alone is over the threshold", async () => {
    // The sixty-third outside trial: 60 tool declarations over the threshold of an 8k window; each turn's 2,000
    // characters of tool output need a compaction, each summary is at its smallest, and the task (76 characters)
    // did not fit the facts' share of it: lost after turn 1, with nothing said above info.
    const h = await faultHarness({ instruction: LARGE_INSTRUCTION, toolChars: 2_000 });
    const task = 'ZEPHYR-7731: build the quarterly Zephyr report and keep the total under 40k.';
    expect((await h.turn(task)).thrown).toBeUndefined();
    for (let turn = 2; turn <= 12; turn++) expect((await h.turn(`Turn ${turn}: continue.`)).thrown).toBeUndefined();
    expect(h.records.length).toBeGreaterThanOrEqual(3);
    const last = h.model.requests.at(-1)!;
    expect(contentsText(last.contents)).toContain(task);
    const warned = h.logger.lines.filter((line) => line.level === 'warn' && /compaction threshold/.test(line.message));
    expect(warned).toHaveLength(1);
    expect(warned[0]!.message).toContain('window 8000');
    expect(h.model.rejectedRequests).toHaveLength(0);
  });

  it('should warn once, not on every call, when a system prompt larger than the window cannot fit', async () => {
    const h = await faultHarness({
      instruction: 'Follow the operating procedures exactly. '.repeat(2_500),
      toolChars: 500,
    });
    for (let turn = 1; turn <= 4; turn++) await h.turn(`Turn ${turn}: please help.`);
    expect((await h.usage()).overLimitCalls).toBe(h.model.requests.length);
    expect(h.overLimitWarnings()).toBe(1);
  });

  it('should try to pin a refused first request once and warn once, not on every call', async () => {
    const h = await faultHarness({ toolChars: 300, guard: { pinFirstRequest: true, maxPinnedTokens: 20 } });
    await h.turn(
      `Please migrate the billing service to the new API. ${'It must keep every invoice field and the audit trail. '.repeat(10)}`,
    );
    for (let turn = 2; turn <= 6; turn++) await h.turn(`Turn ${turn}: carry on.`);
    expect(h.logger.matching('the first request was not pinned')).toHaveLength(1);
  });

  it('should not summarize every step of a turn whose message alone is over the window', async () => {
    // ~24,000 real tokens of task on a 16,000 window: the message is cut to fit on every call, and no
    // summary of the steps brings the request under the threshold without that cut.
    const summarizer = new ScriptedSummarizer();
    const h = createHarness({
      window: 16_000,
      ratio: 1.2,
      script: loopOf(40),
      plugins: [new ContextGuard({ contextWindow: 16_000, summarizer })],
    });
    const session = await h.startSession();
    const task = `Fix the parser. ${'The parser fails on nested quotes in the config files of every service. '.repeat(1_100)}`;
    expect(errorCodes(await runTurn(h.runner, session.id, task))).toEqual([]);
    expect(h.model.requests.filter((request) => !request.rejected)).toHaveLength(41);
    expect(h.model.rejectedRequests).toEqual([]);
    // Before: a summary on 39 of the 41 calls. Now one when the steps alone near the hard limit.
    expect(summarizer.calls.length).toBeLessThanOrEqual(10);
  });
});
