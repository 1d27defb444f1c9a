/**
 * Provider errors around a compaction: a "prompt too long" rejection teaches
 * the guard the real size, and a failed call right after a compaction does not
 * lose the summary (ADK drops a failed step's state delta unless the plugin's
 * onModelErrorCallback hands back a full event).
 */
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { decodeSummaryRecord, decodeUsageRecord, stateKeysFor } from '../../src/internal.js';
import { ScriptedLlm, ratioTokenCounter, ScriptedSummarizer } from '../../src/testing/index.js';
import { createHarness, runTurn, toolThenAnswerScript, errorCodes } from '../support/agent-harness.js';

const keys = stateKeysFor('worker');

describe('model errors', () => {
  it('should be rejected at most once when usage is never reported and the real ratio is beyond the default correction', async () => {
    const window = 8_000;
    const harness = createHarness({
      window,
      ratio: 3.0,
      script: toolThenAnswerScript(1_500),
      reportUsage: false,
      plugins: [new ContextGuard({ contextWindow: window, summarizer: new ScriptedSummarizer() })],
    });
    const { model } = harness;
    const session = await harness.startSession();
    await harness.runTurns(session.id, 15);
    const rejected = model.rejectedRequests;
    expect(rejected.length).toBeLessThanOrEqual(1);
    if (rejected.length === 1) {
      // After the one rejection, every later request fits.
      expect(model.requests.slice(rejected[0]!.index + 1).every((request) => !request.rejected)).toBe(true);
    }
    const stored = await harness.storedSession(session.id);
    expect(decodeUsageRecord(stored.state[keys.usage]).rejectedCalls).toBe(rejected.length);
  });

  it('should learn the real size from the rejection message and retry the call compacted, inside the same turn', async () => {
    const window = 8_000;
    // defaultCorrection 1 and a high uncalibrated ratio make the first overflow certain.
    const guard = new ContextGuard({
      contextWindow: window,
      defaultCorrection: 1,
      uncalibratedThresholdRatio: 1,
      summarizer: new ScriptedSummarizer(),
    });
    const harness = createHarness({
      window,
      ratio: 4.0,
      script: toolThenAnswerScript(2_000),
      reportUsage: false,
      plugins: [guard],
    });
    const { model } = harness;
    const session = await harness.startSession();
    const events = await harness.runTurns(session.id, 8);
    expect(model.rejectedRequests).toHaveLength(1);
    // The retry (the next request, of the same call) is accepted: the user never sees the 400.
    expect(model.requests[model.rejectedRequests[0]!.index + 1]?.rejected).toBe(false);
    expect(errorCodes(events)).toEqual([]);
    const stored = await harness.storedSession(session.id);
    const usage = decodeUsageRecord(stored.state[keys.usage]);
    expect(usage.rejectedCalls).toBe(1);
    // 4.0 real per chars/4 against tiktoken's count of this text: the learned factor is well above the default of 1.
    expect(usage.learnedCorrection).toBeGreaterThan(2);
  });

  it('should keep the summary when the model call right after a compaction fails', async () => {
    const window = 8_000;
    let failNext = false;
    const model = new ScriptedLlm({
      window,
      countTokens: ratioTokenCounter(1.8),
      script: toolThenAnswerScript(3_000),
      // Fail exactly the first call whose request carries a summary.
      fail: ({ request }) => {
        const first = request.contents[0]?.parts?.[0]?.text ?? '';
        if (first.startsWith('[context_guard summary]') && !failNext) {
          failNext = true;
          return new Error(JSON.stringify({ error: { code: 503, message: 'The model is overloaded.' } }));
        }
        return undefined;
      },
    });
    const summarizer = new ScriptedSummarizer();
    const harness = createHarness({
      model,
      // About a summary's survival: masking alone would make room in this session.
      plugins: [new ContextGuard({ contextWindow: window, summarizer, maskKeepRecent: 0, prepareTurnsAhead: 0 })],
    });
    const session = await harness.startSession();
    let failedTurn = 0;
    for (let turn = 1; turn <= 12 && failedTurn === 0; turn++) {
      const events = await runTurn(harness.runner, session.id, `Turn ${turn}: check the logs.`);
      if (events.some((event) => event.errorCode === '503')) failedTurn = turn;
    }
    expect(failedTurn).toBeGreaterThan(0);
    const callsAtFailure = summarizer.calls.length;
    const stored = await harness.storedSession(session.id);
    // The failed step's state delta was persisted with the error event.
    expect(decodeSummaryRecord(stored.state[keys.summary])).toBeDefined();
    // The next turn reuses it instead of summarizing the same history again.
    await runTurn(harness.runner, session.id, 'Try again please.');
    const retried = model.requests[model.requests.length - 1]!;
    expect(retried.contents[0]?.parts?.[0]?.text?.startsWith('[context_guard summary]')).toBe(true);
    expect(summarizer.calls.length).toBe(callsAtFailure);
  });
});
