/**
 * The guard's own summary request rejected as too long teaches what a rejected call of the agent
 * teaches. With no `summarizer` the summarizer is the agent's own model; on an unknown model
 * (assumed at 128k) that really has 64k, a compaction the application asks for when the last
 * request was just under 64k sends a summary request just over it (the whole history, plus the
 * instruction). Before, the guard fell back to the mechanical summary and learned nothing, so the
 * agent's next oversized call was rejected too (and retried inside its call); now the stated maximum
 * is the window from that rejection on, and no agent call is rejected. A separate summarizer model's
 * rejection teaches that model's window alone (every summary request was rejected before).
 */
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { decodeUsageRecord, stateKeysFor } from '../../src/internal.js';
import { CapturingLogger, logText, ratioTokenCounter, ScriptedLlm } from '../../src/testing/index.js';
import { callThenAnswer } from '../support/call-then-answer.js';
import { createHarness, errorCodes, runTurn } from '../support/agent-harness.js';
import type { ModelScript, RecordedRequest } from '../../src/testing/index.js';
import { logsWorkerModel, separateSummarizerGuard } from '../support/separate-summarizer.js';

const REAL_WINDOW = 64_000;
const keys = stateKeysFor('worker');

/** A summary request: its last content is the summarizing instruction (summary/summary-from-request.ts). */
function isSummaryRequest(request: RecordedRequest): boolean {
  return JSON.stringify(request.contents.at(-1)).includes('Your only task now is to compact');
}

/** The user turns in a request: turn n asks for one `fetch_logs` of 30,000 characters, turn 4 of 34,800. */
function turnOf(contents: readonly { role?: string; parts?: readonly { text?: string }[] }[]): number {
  return contents.filter(
    (content) => content.role === 'user' && content.parts?.some((part) => part.text?.startsWith('Turn')),
  ).length;
}

/** The script as the model reads a request: the budget line, when last, is not a turn to answer. */
function pastBudgetLine(script: ModelScript): ModelScript {
  return (call) => {
    const last = call.request.contents.at(-1);
    const isLine = last?.role === 'user' && last.parts?.[0]?.text?.startsWith('[context budget]') === true;
    return script(
      isLine ? { ...call, request: { ...call.request, contents: call.request.contents.slice(0, -1) } } : call,
    );
  };
}

/** The agent on an unknown 64k model, run to just under 64k in four turns, then a compaction the application asks for. */
async function untilRequestedCompaction(options: { budgetLine?: boolean } = {}) {
  // The budget line and the context_status declaration add to every request: turn 4's result is that much smaller.
  const fourth = options.budgetLine ? 34_200 : 34_800;
  // 'scripted-model' is in no catalogue: the guard assumes 128k until a rejection states the maximum.
  const model = new ScriptedLlm({
    window: REAL_WINDOW,
    countTokens: ratioTokenCounter(2),
    script: pastBudgetLine(
      callThenAnswer({
        // Turn 4's result brings its answer call to just under 64k (about 63.7k).
        call: ({ request }) => {
          const turn = turnOf(request.contents);
          if (JSON.stringify(request.contents.at(-1)).includes('context status'))
            return { name: 'context_status', args: {} };
          return { name: 'fetch_logs', args: { size: turn === 4 ? fourth : 30_000, seed: request.contents.length } };
        },
        answer: ({ request }) => `Checked: ${logText(200, request.contents.length)}`,
      }),
    ),
  });
  const logger = new CapturingLogger();
  // Nothing but the application's request reduces the history before it: no masking, truncation or preparation.
  const guard = new ContextGuard({
    logger,
    maskKeepRecent: 1_000,
    maskStaleOutputTokens: 10_000_000,
    toolOutputTruncation: false,
    prepareTurnsAhead: 0,
    budgetLine: options.budgetLine ?? false,
  });
  const harness = createHarness({ model, plugins: [guard] });
  const session = await harness.startSession();
  for (let turn = 1; turn <= 4; turn++)
    expect(errorCodes(await runTurn(harness.runner, session.id, `Turn ${turn}: check the logs.`))).toEqual([]);
  const last = model.requests.at(-1)!;
  expect(last.promptTokens).toBeGreaterThan(63_000);
  expect(last.promptTokens).toBeLessThanOrEqual(REAL_WINDOW);
  expect(model.rejectedRequests).toHaveLength(0);
  const before = await harness.storedSession(session.id);
  await guard.requestCompaction({ sessionService: harness.sessionService, session: before, agentName: 'worker' });
  return { model, logger, harness, session };
}

describe("a summary request the agent's model rejects as too long", () => {
  it('should teach the window, so that no call of the agent is rejected after it', async () => {
    const { model, logger, harness, session } = await untilRequestedCompaction();
    const events = await harness.runTurns(session.id, 14, { from: 5 });
    expect(errorCodes(events)).toEqual([]);

    // The one rejection is the summary request's; no call of the agent was rejected, before its window was learned or after.
    expect(model.rejectedRequests.map(isSummaryRequest)).toEqual([true]);
    const usage = decodeUsageRecord((await harness.storedSession(session.id)).state[keys.usage]);
    expect({ learned: usage.learnedWindow, window: usage.window, rejectedCalls: usage.rejectedCalls }).toEqual({
      learned: REAL_WINDOW,
      window: REAL_WINDOW,
      rejectedCalls: 0,
    });
    // The history grew past the real window again after the first compaction: the guard reduced it in time.
    expect(usage.compactions + usage.maskings).toBeGreaterThan(1);
    expect(logger.matching(/summarizer's model rejected the summary request as too long/)).toHaveLength(1);
  }, 60_000);

  it('should give context_status, asked right after that call, the learned window', async () => {
    // The call whose summary request is rejected had sent its budget line under the assumed 128k.
    const { model, harness, session } = await untilRequestedCompaction({ budgetLine: true });
    const events = await harness.runTurns(session.id, 5, { from: 5, ask: 'check your context status.' });
    expect(model.rejectedRequests.map(isSummaryRequest)).toEqual([true]);
    const status = events
      .flatMap((event) => event.content?.parts ?? [])
      .find((part) => part.functionResponse?.name === 'context_status')?.functionResponse?.response;
    expect(status).toMatchObject({ window: REAL_WINDOW });
  }, 60_000);
});

describe('a summary request a separate summarizer model rejects as too long', () => {
  it("should teach that model's window, not the agent's: its later summary requests fit", async () => {
    // An unknown summarizer model (assumed at 128k) that really takes 4,000 tokens.
    const summarizer = new ScriptedLlm({
      model: 'scripted-summarizer',
      window: 4_000,
      countTokens: ratioTokenCounter(2),
      script: () => ({ content: { role: 'model', parts: [{ text: '## Current state\nThe logs were checked.' }] } }),
    });
    const model = logsWorkerModel();
    const guard = separateSummarizerGuard(summarizer);
    const harness = createHarness({ model, plugins: [guard] });
    const session = await harness.sessionAfterTurns(30);

    const summaries = summarizer.requests.length;
    expect(summaries).toBeGreaterThan(2);
    // Rejected once; every later summary request was made to fit the window it stated.
    expect(summarizer.rejectedRequests.map((request) => request.index)).toEqual([0]);
    expect(model.rejectedRequests).toHaveLength(0);
    const usage = decodeUsageRecord(session.state[keys.usage]);
    expect({ learned: usage.learnedWindow, window: usage.window }).toEqual({ learned: undefined, window: 24_000 });
  }, 60_000);

  it("should bound that model's window by the request it refused when its words state no maximum (Bedrock's)", async () => {
    // The twenty-eighth outside trial: every summary request of a 6k Haiku deployment was rejected, each a fallback.
    const summarizer = new ScriptedLlm({
      model: 'scripted-summarizer',
      window: 4_000,
      countTokens: ratioTokenCounter(2),
      script: () => ({ content: { role: 'model', parts: [{ text: '## Current state\nThe logs were checked.' }] } }),
      rejection: () => new Error('ValidationException: Input is too long for requested model.'),
    });
    const model = logsWorkerModel();
    const harness = createHarness({ model, plugins: [separateSummarizerGuard(summarizer)] });
    const session = await harness.sessionAfterTurns(30);

    const rejected = summarizer.rejectedRequests.length;
    expect(summarizer.requests.length - rejected).toBeGreaterThan(1);
    // Each refusal lowers the bound; the bound then holds: the last summary requests all fit.
    expect(rejected).toBeLessThanOrEqual(3);
    expect(summarizer.requests.slice(-2).every((request) => !request.rejected)).toBe(true);
    const usage = decodeUsageRecord(session.state[keys.usage]);
    expect(usage.window).toBe(24_000);
    expect(usage.summarizerWindow).toBeLessThan(8_000);
  }, 60_000);
});
