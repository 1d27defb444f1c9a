/**
 * Masking for cost inside one long turn, through a real Runner: a coding agent's single task
 * message followed by 40 tool steps, on a window whose threshold the run never reaches. Every
 * call re-reads the steps before it; the guard masks the completed ones in batches only when
 * the saving over the calls the loop has ahead beats the prefix it sends again, so it never
 * bills more than no guard, and with large outputs it bills less. Billed cache-aware, as the
 * simulator does: the scripted model serves the common prefix with the previous request from
 * its cache (src/testing/cached-prefix.ts) and the bill takes it at Gemini 2.5 Flash's prices.
 */
import { describe, expect, it } from 'vitest';
import type { Content } from '@google/genai';
import { ContextGuard, callCostUsd, priceFor } from '../../src/index.js';
import { ScriptedSummarizer, type ModelScript } from '../../src/testing/index.js';
import { createHarness } from '../support/agent-harness.js';
import { pairingViolations } from '../support/request-invariants.js';

const WINDOW = 200_000;
const STEPS = 40;
const MASKED = 'context_guard_masked';

/** One task, then `STEPS` calls of `fetch_logs`, each result `size(step)` characters, then the answer. */
function loopScript(size: (step: number) => number, steps: number): ModelScript {
  return ({ request }) => {
    const step = request.contents.filter((content) => content.parts?.some((part) => part.functionResponse)).length;
    if (step >= steps) return { content: { role: 'model', parts: [{ text: 'The failing test is fixed.' }] } };
    const call = { name: 'fetch_logs', args: { size: size(step), seed: step + 1 } };
    return { content: { role: 'model', parts: [{ functionCall: call }] } };
  };
}

const maskedIn = (contents: readonly Content[]): number =>
  contents
    .flatMap((content) => content.parts ?? [])
    .filter((part) => part.functionResponse?.response && MASKED in part.functionResponse.response).length;

async function run(size: (step: number) => number, guarded: boolean, steps = STEPS) {
  const plugins = guarded ? [new ContextGuard({ contextWindow: WINDOW, summarizer: new ScriptedSummarizer() })] : [];
  const harness = createHarness({ window: WINDOW, ratio: 1.2, script: loopScript(size, steps), plugins });
  await harness.sessionAfterTurns(1);
  const price = priceFor('gemini-2.5-flash')!;
  const { requests } = harness.model;
  const cost = requests.reduce(
    (sum, request) =>
      sum + callCostUsd(price, { promptTokens: request.promptTokens, cachedPromptTokens: request.cachedPromptTokens }),
    0,
  );
  return { requests, cost };
}

/** Checks every request of a guarded loop keeps what the rule promises, and returns its batches. */
function checkLoop(requests: Awaited<ReturnType<typeof run>>['requests']): number {
  let batches = 0;
  const task = requests[0]?.contents[0];
  for (let i = 0; i < requests.length; i++) {
    const { contents } = requests[i]!;
    expect(pairingViolations(contents)).toEqual([]);
    // The user's message is never masked, nor the latest result.
    expect(contents[0]).toEqual(task);
    expect(maskedIn(contents.slice(-1))).toBe(0);
    const previous = requests[i - 1]?.contents;
    if (!previous) continue;
    if (maskedIn(contents) > maskedIn(previous)) batches++;
    // Between two batches each request starts with the previous one, byte for byte.
    else expect(JSON.stringify(contents.slice(0, previous.length))).toBe(JSON.stringify(previous));
  }
  return batches;
}

describe('masking for cost inside a long tool loop', () => {
  it('should bill no more than no guard while the window holds, with outputs of 2-4 KB', async () => {
    const size = (step: number) => 2_000 + ((step * 523) % 2_000);
    const guarded = await run(size, true);
    const plain = await run(size, false);
    expect(guarded.requests).toHaveLength(STEPS + 1);
    expect(guarded.requests.filter((request) => request.rejected)).toEqual([]);
    // Far from the threshold: nothing is due for room.
    expect(Math.max(...plain.requests.map((request) => request.promptTokens))).toBeLessThan(WINDOW / 4);
    checkLoop(guarded.requests);
    expect(guarded.cost).toBeLessThanOrEqual(plain.cost);
  });

  it('should mask the completed steps in batches, inside the turn, and bill less than no guard, with outputs of 8 KB', async () => {
    const size = () => 8_000;
    const guarded = await run(size, true);
    const plain = await run(size, false);
    expect(guarded.requests.filter((request) => request.rejected)).toEqual([]);
    expect(Math.max(...plain.requests.map((request) => request.promptTokens))).toBeLessThan(WINDOW / 2);
    const batches = checkLoop(guarded.requests);
    // Each 8 KB result alone is worth a batch once the model has moved past it: the rewrite is its
    // placeholder, the saving its cached re-read on every later call.
    expect(batches).toBeGreaterThan(0);
    expect(guarded.cost).toBeLessThan(plain.cost * 0.9);
  });

  it("should leave a short loop's results whole for its answer: three pages of 8 KB fetched to be compared (the thirteenth outside trial)", async () => {
    const { requests } = await run(() => 8_000, true, 3);
    expect(requests).toHaveLength(4);
    for (const request of requests) expect(maskedIn(request.contents)).toBe(0);
  });

  it('should still mask the completed steps of a loop once it has made ten calls', async () => {
    const { requests } = await run(() => 8_000, true, 12);
    expect(requests.slice(0, 10).map((request) => maskedIn(request.contents))).toEqual(Array(10).fill(0));
    expect(maskedIn(requests.at(-1)!.contents)).toBeGreaterThan(0);
  });

  it('should still mask for room inside a short loop: five pages of 8 KB on a 12k window, none rejected (review 13)', async () => {
    const window = 12_000;
    const guard = new ContextGuard({ contextWindow: window, summarizer: new ScriptedSummarizer() });
    const harness = createHarness({ window, ratio: 1.2, script: loopScript(() => 8_000, 5), plugins: [guard] });
    await harness.sessionAfterTurns(1);
    const { requests } = harness.model;
    expect(requests).toHaveLength(6);
    expect(requests.filter((request) => request.rejected)).toEqual([]);
    // Five pages (about 12k tokens) do not fit whole: the loop's first calls are under ten, yet room is made.
    expect(Math.max(...requests.map((request) => maskedIn(request.contents)))).toBeGreaterThan(0);
  });
});
