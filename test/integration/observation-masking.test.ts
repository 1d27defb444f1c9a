/**
 * Observation masking through a real Runner: when a compaction is due, old
 * tool results are replaced by placeholders first and the summarizer runs
 * only when that is not enough; the masking is applied from state on every
 * later call (byte for byte, and after a restart), the latest tool result of
 * the in-flight turn is never masked, and no call/response pair is orphaned.
 */
import { InMemorySessionService } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { stateKeysFor } from '../../src/internal.js';
import { APP_NAME, USER_ID, createHarness, runTurn, toolThenAnswerScript } from '../support/agent-harness.js';
import { pairingViolations } from '../support/request-invariants.js';
import { ScriptedSummarizer } from '../../src/testing/index.js';

const WINDOW = 16_000;
const MASKED = 'context_guard_masked';
const TURNS = 16;

async function session(maskKeepRecent: number | undefined, sessionService = new InMemorySessionService()) {
  const summarizer = new ScriptedSummarizer();
  const guard = new ContextGuard({
    contextWindow: WINDOW,
    summarizer,
    ...(maskKeepRecent === undefined ? {} : { maskKeepRecent }),
  });
  const harness = createHarness({
    window: WINDOW,
    ratio: 1.8,
    script: toolThenAnswerScript(4_000),
    sessionService,
    plugins: [guard],
  });
  return { harness, summarizer, sessionService };
}

function maskedCount(
  contents: readonly { parts?: { functionResponse?: { response?: Record<string, unknown> } }[] }[],
): number {
  return contents
    .flatMap((content) => content.parts ?? [])
    .filter((part) => part.functionResponse?.response && MASKED in part.functionResponse.response).length;
}

describe('observation masking', () => {
  it('should mask old tool results instead of summarizing, and call the summarizer less than without masking', async () => {
    const masked = await session(undefined);
    const plain = await session(0);
    for (const run of [masked, plain]) {
      const stored = await run.harness.startSession();
      await run.harness.runTurns(stored.id, TURNS);
      expect(run.harness.model.rejectedRequests).toEqual([]);
      expect(run.harness.model.requests.flatMap((request) => pairingViolations(request.contents))).toEqual([]);
    }
    expect(plain.summarizer.calls.length).toBeGreaterThan(0);
    expect(masked.summarizer.calls.length).toBeLessThan(plain.summarizer.calls.length);
    expect(masked.harness.model.requests.some((request) => maskedCount(request.contents) > 0)).toBe(true);
    expect(plain.harness.model.requests.every((request) => maskedCount(request.contents) === 0)).toBe(true);
    // The tool result the model is answering is never masked.
    for (const request of masked.harness.model.requests) {
      const last = request.contents[request.contents.length - 1];
      const response = last?.parts?.find((part) => part.functionResponse)?.functionResponse;
      if (response) expect(MASKED in (response.response ?? {})).toBe(false);
    }
  });

  it('should apply the stored masking on every later call and after a restart, the same byte for byte', async () => {
    const continuous = await session(undefined);
    const restartedStore = new InMemorySessionService();
    const beforeRestart = await session(undefined, restartedStore);
    const ids: string[] = [];
    for (const run of [continuous, beforeRestart]) {
      const stored = await run.sessionService.createSession({
        appName: APP_NAME,
        userId: USER_ID,
        sessionId: 'masking',
      });
      ids.push(stored.id);
      await run.harness.runTurns(stored.id, TURNS);
    }
    const state =
      (await restartedStore.getSession({ appName: APP_NAME, userId: USER_ID, sessionId: 'masking' }))?.state ?? {};
    expect(state[stateKeysFor('worker').mask]).toBeDefined();

    // A new process: new guard, new Runner, the same stored session; it must send what the running one sends.
    const afterRestart = await session(undefined, restartedStore);
    const sentBefore = continuous.harness.model.requests.length;
    await runTurn(continuous.harness.runner, 'masking', 'One more: check the logs.');
    await runTurn(afterRestart.harness.runner, 'masking', 'One more: check the logs.');
    const expected = continuous.harness.model.requests
      .slice(sentBefore)
      .map((request) => JSON.stringify(request.contents));
    expect(maskedCount(afterRestart.harness.model.requests[0]!.contents)).toBeGreaterThan(0);
    expect(afterRestart.harness.model.requests.map((request) => JSON.stringify(request.contents))).toEqual(expected);
  });

  it('should keep the request prefix unchanged between maskings and compactions (cache-stable)', async () => {
    const run = await session(undefined);
    const stored = await run.harness.startSession();
    await run.harness.runTurns(stored.id, TURNS);
    let stablePairs = 0;
    const requests = run.harness.model.requests;
    for (let i = 1; i < requests.length; i++) {
      const previous = requests[i - 1]!.contents;
      const next = requests[i]!.contents;
      const sameHead =
        JSON.stringify(previous[0]) === JSON.stringify(next[0]) && maskedCount(previous) === maskedCount(next);
      if (!sameHead) continue;
      stablePairs++;
      expect(JSON.stringify(next.slice(0, previous.length))).toBe(JSON.stringify(previous));
    }
    expect(stablePairs).toBeGreaterThan(requests.length / 2);
  });
});
