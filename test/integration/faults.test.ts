/**
 * Faults of the summarizer and the provider, through a real Runner. Each test
 * states the documented behaviour: a clear error or a logged, safe fallback,
 * never a crashed turn, never lost history.
 *
 * The summarizer is an ADK `BaseLlm` (ScriptedSummarizerLlm), so the guard's
 * own `llmSummarizer` adapter runs: request building, thought filtering,
 * finish reasons, error responses and the abort signal.
 */
import { InMemorySessionService, LlmAgent, LogLevel, Runner, setLogLevel } from '@google/adk';
import { afterAll, describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { SUMMARY_MARKER, decodeSummaryRecord, stateKeysFor } from '../../src/internal.js';
import { ScriptedLlm, ratioTokenCounter } from '../../src/testing/index.js';
import {
  FAULT_APP,
  FAULT_USER,
  faultHarness,
  fetchThenAnswer,
  fetchTool,
  sentTexts,
  type FaultHarness,
} from '../support/fault-harness.js';
import { SUMMARIZER_THOUGHT, ScriptedSummarizerLlm, type SummarizerMode } from '../../src/testing/index.js';

setLogLevel(LogLevel.ERROR);

let faultCases = 0;
afterAll(() => console.log(`[faults] summarizer and provider fault cases: ${faultCases}`));

/** What every fault test asserts besides its own behaviour: no crashed turn, nothing oversized, well-formed requests, no guard error. */
async function expectHealthy(h: FaultHarness): Promise<void> {
  expect(h.overWindow().map((request) => request.promptTokens)).toEqual([]);
  expect(h.shapeProblems()).toEqual([]);
  expect(h.logger.atOrAbove('error')).toEqual([]);
  // Usage counts every model call, even across the fallback.
  expect((await h.usage()).modelCalls).toBe(h.model.requests.length);
}

/** Runs to the first compaction with the summarizer in `mode`; then one more turn to check the summary is reused. */
async function compactWith(
  mode: SummarizerMode,
  guard: Parameters<typeof faultHarness>[0] = {},
): Promise<FaultHarness> {
  faultCases++;
  const h = await faultHarness(guard);
  h.summarizer.mode = mode;
  const turns = await h.turnsUntilCompaction();
  expect(h.records.length, `no compaction in ${turns} turns`).toBeGreaterThan(0);
  const after = await h.turn('One more question, please.');
  expect(after.thrown).toBeUndefined();
  expect(after.errorCodes).toEqual([]);
  return h;
}

describe('summarizer faults', () => {
  it('should fall back to the mechanical summary, log a warning and keep the turn when the summarizer throws', async () => {
    const h = await compactWith('throw');
    const record = h.records[0]!;
    expect(record.fallback).toBe(true);
    // Only the kind is stored (a provider's error text can quote the conversation); the text goes to debug.
    expect(record.fallbackReason).toBe('failed');
    expect(record.fallbackDetail).toBeUndefined();
    expect(h.logger.matching(/summarizer failure: failed: .*503/).map((line) => line.level)).toContain('debug');
    expect((await h.summary())?.text).toContain('Mechanical summary');
    expect(h.logger.matching('used the mechanical summary')).toHaveLength(h.records.length);
    await expectHealthy(h);
  });

  it('should abandon a summarizer that hangs past summarizerTimeoutMs, abort its call and fall back', async () => {
    const h = await compactWith('hang', { guard: { summarizerTimeoutMs: 50 } });
    expect(h.records[0]?.fallback).toBe(true);
    expect(h.records[0]?.fallbackReason).toBe('timeout');
    // The abort signal reached the model call, so a real provider request would be cancelled.
    expect(h.summarizer.calls.every((call) => call.aborted)).toBe(true);
    await expectHealthy(h);
  });

  it('should fall back even when a hanging summarizer ignores the abort signal', async () => {
    const h = await compactWith('hang-deaf', { guard: { summarizerTimeoutMs: 50 } });
    expect(h.records[0]?.fallbackReason).toBe('timeout');
    await expectHealthy(h);
  });

  it.each<SummarizerMode>(['empty', 'blank', 'thought-only'])(
    'should fall back when the summarizer answers with no visible text (%s)',
    async (mode) => {
      const h = await compactWith(mode);
      expect(h.records[0]?.fallback).toBe(true);
      expect(h.records[0]?.fallbackReason).toBe('empty');
      expect(JSON.stringify(await h.state())).not.toContain(SUMMARIZER_THOUGHT);
      await expectHealthy(h);
    },
  );

  it('should fall back when the summarizer model answers with an error response (errorCode, no content)', async () => {
    const h = await compactWith('error-response');
    expect(h.records[0]?.fallback).toBe(true);
    expect(h.records[0]?.fallbackReason).toBe('failed');
    expect(h.logger.matching(/summarizer failure: .*summarizer model error SAFETY/)).not.toEqual([]);
    await expectHealthy(h);
  });

  it('should cut a summary larger than its cap to the cap and mark it truncated', async () => {
    const h = await compactWith('huge');
    const record = h.records[0]!;
    const summary = (await h.summary())!;
    expect(record.fallback).toBe(false);
    expect(record.summaryTruncated).toBe(true);
    // The cap is summaryMaxTokens (4,096) tokens at 3 characters each, and less on an 8k window.
    expect(summary.text.length).toBeLessThanOrEqual(4_096 * 3);
    expect(summary.text.length).toBe(record.summaryChars);
    // The summarizer was told the cap.
    expect(h.summarizer.calls[0]?.maxOutputTokens).toBeGreaterThan(0);
    expect(h.summarizer.calls[0]?.maxOutputTokens).toBeLessThanOrEqual(4_096);
    await expectHealthy(h);
  });

  it('should keep a summary cut by the provider (finishReason MAX_TOKENS) and mark it truncated', async () => {
    const h = await compactWith('max-tokens');
    const record = h.records[0]!;
    expect(record.fallback).toBe(false);
    expect(record.summaryTruncated).toBe(true);
    expect((await h.summary())?.text).toContain('The first fact is that the');
    await expectHealthy(h);
  });

  it("should drop the summarizer's thought parts: they reach neither the stored summary nor any request", async () => {
    const h = await compactWith('thought');
    expect(h.records[0]?.fallback).toBe(false);
    expect((await h.summary())?.text).toContain('## Current state');
    expect(JSON.stringify(await h.state())).not.toContain(SUMMARIZER_THOUGHT);
    expect(sentTexts(h.model).some((text) => text.includes(SUMMARIZER_THOUGHT))).toBe(false);
    await expectHealthy(h);
  });

  it("should keep the summarizer's prompt inside the summarizer's own window (oldest history dropped first)", async () => {
    faultCases++;
    // A summarizer with a 4k window (2.5 real tokens per chars/4) against an agent with a 16k window.
    const summarizer = new ScriptedSummarizerLlm({ window: 4_000, countTokens: ratioTokenCounter(2.5) });
    // Masking off: the summarizer's input is what is measured.
    const h = await faultHarness({
      window: 16_000,
      toolChars: 6_000,
      guard: { summarizer, summarizerContextWindow: 4_000, maskKeepRecent: 0 },
    });
    await h.turnsUntilCompaction();
    await h.turn('And now?');
    expect(summarizer.calls.length).toBeGreaterThan(0);
    expect(summarizer.calls.filter((call) => call.rejected)).toEqual([]);
    expect(h.records[0]?.fallback).toBe(false);
    expect(h.records[0]?.droppedFromSummarizerInput).toBeGreaterThan(0);
    await expectHealthy(h);
  });
});

describe('provider faults', () => {
  it('should retry, compacted and inside its call, a request the provider rejects though the estimate let it through', async () => {
    faultCases++;
    // No usage ever reported, real counts 4x chars/4, and the guard told to trust its heuristic fully:
    // the first overflow cannot be foreseen.
    const h = await faultHarness({
      ratio: 4,
      reportUsage: false,
      toolChars: 2_000,
      guard: { defaultCorrection: 1, uncalibratedThresholdRatio: 1 },
    });
    const errorTurns: number[] = [];
    for (let turn = 1; turn <= 8; turn++) {
      const outcome = await h.turn(`Turn ${turn}: fetch the document.`);
      expect(outcome.thrown).toBeUndefined();
      if (outcome.errorCodes.length > 0) errorTurns.push(turn);
    }
    // The rejected call is retried inside the same model call (adk/runtime/retrying-model.ts): no error event.
    expect(errorTurns).toEqual([]);
    expect(h.model.rejectedRequests).toHaveLength(1);
    const rejected = h.model.rejectedRequests[0]!;
    // The retry was accepted, after a compaction forced by the rejection: a summary, or old tool results masked.
    expect(h.model.requests[rejected.index + 1]?.rejected).toBe(false);
    const afterRejection = await h.usage();
    expect(h.records.some((record) => record.reason === 'forced') || afterRejection.maskings > 0).toBe(true);
    expect(h.logger.matching('rejected the request as too long')).toHaveLength(1);
    const usage = await h.usage();
    expect(usage.rejectedCalls).toBe(1);
    // The size stated in the error calibrated the estimate.
    expect(usage.learnedCorrection).toBeGreaterThan(2);
    expect(h.model.requests.slice(rejected.index + 1).every((request) => !request.rejected)).toBe(true);
  });

  it('should keep a compaction whose model call failed, and a new Runner and plugin should apply it without summarizing again', async () => {
    faultCases++;
    let failed = false;
    const sessionService = new InMemorySessionService();
    const summarizer = new ScriptedSummarizerLlm();
    const makeRunner = (fail: boolean): { runner: Runner; model: ScriptedLlm } => {
      const model = new ScriptedLlm({
        window: 8_000,
        countTokens: ratioTokenCounter(1.5),
        script: fetchThenAnswer(3_000),
        fail: ({ request }) => {
          // Fail the first call that carries a summary, i.e. the call right after the first compaction.
          if (!fail || failed || !(request.contents[0]?.parts?.[0]?.text ?? '').startsWith(SUMMARY_MARKER))
            return undefined;
          failed = true;
          return new Error(JSON.stringify({ error: { code: 503, message: 'The model is overloaded.' } }));
        },
      });
      const agent = new LlmAgent({
        name: 'worker',
        model,
        instruction: 'You analyse documents.',
        tools: [fetchTool()],
      });
      const guard = new ContextGuard({
        contextWindow: 8_000,
        summarizer,
        modelWindows: { 'scripted-summarizer': 32_000 },
        logger: { debug() {}, info() {}, warn() {}, error() {} },
        // About a summary's survival: masking alone would make room in this session.
        maskKeepRecent: 0,
      });
      return { runner: new Runner({ appName: FAULT_APP, agent, sessionService, plugins: [guard] }), model };
    };
    const first = makeRunner(true);
    const session = await sessionService.createSession({ appName: FAULT_APP, userId: FAULT_USER });
    let errorCodes: string[] = [];
    for (let turn = 1; turn <= 15 && !failed; turn++) {
      errorCodes = [];
      for await (const event of first.runner.runAsync({
        userId: FAULT_USER,
        sessionId: session.id,
        newMessage: { role: 'user', parts: [{ text: `Turn ${turn}: fetch it.` }] },
      })) {
        if (event.errorCode) errorCodes.push(`${event.errorCode}`);
      }
    }
    expect(failed).toBe(true);
    expect(errorCodes).toEqual(['503']);
    const callsAtFailure = summarizer.calls.length;
    const stored = await sessionService.getSession({ appName: FAULT_APP, userId: FAULT_USER, sessionId: session.id });
    const summary = decodeSummaryRecord(stored?.state[stateKeysFor('worker').summary]);
    expect(summary).toBeDefined();
    // A new process: new plugin instance, new Runner and model, same session store.
    const second = makeRunner(false);
    for await (const event of second.runner.runAsync({
      userId: FAULT_USER,
      sessionId: session.id,
      newMessage: { role: 'user', parts: [{ text: 'Try again.' }] },
    })) {
      expect(event.errorCode).toBeUndefined();
    }
    expect(second.model.requests[0]?.contents[0]?.parts?.[0]?.text).toContain(summary!.text);
    expect(summarizer.calls.length).toBe(callsAtFailure);
  });

  it('should pass a provider error that is not about size through unchanged, without forcing a compaction', async () => {
    faultCases++;
    let calls = 0;
    const h = await faultHarness({
      toolChars: 0,
      fail: () =>
        ++calls === 2 ? new Error(JSON.stringify({ error: { code: 429, message: 'Resource exhausted.' } })) : undefined,
    });
    await h.turn('First question.');
    const outcome = await h.turn('Second question.');
    expect(outcome.thrown).toBeUndefined();
    expect(outcome.errorCodes).toEqual(['429']);
    await h.turn('Third question.');
    const usage = await h.usage();
    expect(usage.rejectedCalls).toBe(0);
    expect(usage.forceCompaction).toBe(false);
    expect(h.records).toEqual([]);
    expect(usage.modelCalls).toBe(3);
  });
});
