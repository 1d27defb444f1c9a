/**
 * Masking for cost through a real Runner: on a large window the threshold is
 * far away, yet every call re-sends, and pays for, the tool results of the
 * completed turns. Once masking them saves `maskStaleOutputTokens` and pays for
 * the cached prefix it breaks (weighed with the model's cached price), they are
 * masked at a turn's first call, with no model call; the in-flight turn is never
 * masked, the prefix stays byte-identical within a turn, and the bill (prompt
 * tokens at the cached rate where cached) is lower than without it. `status()`
 * and the maskings metric say how many maskings there were, and why.
 */
import { describe, expect, it } from 'vitest';
import type { Content } from '@google/genai';
import { ContextGuard, callCostUsd, priceFor, type ContextGuardOptions } from '../../src/index.js';
import { ScriptedSummarizer } from '../../src/testing/index.js';
import { createHarness, toolThenAnswerScript } from '../support/agent-harness.js';
import { PLANTED_CODE, recallSession } from '../../simulator/recall.js';
import { metricsProbe } from '../support/metrics-probe.js';
import { pairingViolations } from '../support/request-invariants.js';

// Installed before any guard runs in this file: its instruments bind to the global provider on first use.
const probe = metricsProbe().register();

/** Maskings for cost counted by the metric so far in this file (it is cumulative). */
async function costMaskings(): Promise<number> {
  const counter = (await probe.exported()).find((metric) => metric.descriptor.name === 'gen_ai.context_guard.maskings');
  const points = counter?.dataPoints ?? [];
  expect(points.every((point) => point.attributes['context_guard.cause'] === 'cost')).toBe(true);
  return points.reduce((sum, point) => sum + Number(point.value), 0);
}

const WINDOW = 200_000;
const TURNS = 12;
const MASKED = 'context_guard_masked';

const maskedIn = (contents: readonly Content[]): number =>
  contents
    .flatMap((content) => content.parts ?? [])
    .filter((part) => part.functionResponse?.response && MASKED in part.functionResponse.response).length;

/** Index of the in-flight turn's user message: the last content with a text part from the user. */
function turnStart(contents: readonly Content[]): number {
  for (let i = contents.length - 1; i >= 0; i--) {
    const content = contents[i];
    if (content?.role === 'user' && content.parts?.some((part) => part.text) === true) return i;
  }
  return -1;
}

/** The harness's model with no discount on cached tokens: breaking the cache costs nothing. */
const NO_CACHE_DISCOUNT = { 'scripted-model': { input: 0.3, cachedInput: 0.3, output: 2.5 } };

async function run(maskStaleOutputTokens?: number, options: Partial<ContextGuardOptions> = {}) {
  const summarizer = new ScriptedSummarizer();
  const guard = new ContextGuard({
    contextWindow: WINDOW,
    summarizer,
    ...(maskStaleOutputTokens === undefined ? {} : { maskStaleOutputTokens }),
    ...options,
  });
  const harness = createHarness({ window: WINDOW, ratio: 1.2, script: toolThenAnswerScript(24_000), plugins: [guard] });
  const session = await harness.sessionAfterTurns(TURNS);
  const price = priceFor('gemini-2.5-flash')!;
  const cost = harness.model.requests.reduce(
    (sum, request) =>
      sum + callCostUsd(price, { promptTokens: request.promptTokens, cachedPromptTokens: request.cachedPromptTokens }),
    0,
  );
  const status = guard.status(session, 'worker');
  return { requests: harness.model.requests, summarizer, guard, cost, status };
}

describe('masking for cost (maskStaleOutputTokens)', () => {
  it('should mask completed turns once their tool results are large, with no summary, and bill less than without it', async () => {
    const costMaskingsBefore = await costMaskings();
    const masked = await run();
    const plain = await run(0);
    for (const { requests } of [masked, plain]) {
      expect(requests.filter((request) => request.rejected)).toEqual([]);
      expect(requests.flatMap((request) => pairingViolations(request.contents))).toEqual([]);
    }
    expect(plain.requests.every((request) => maskedIn(request.contents) === 0)).toBe(true);
    expect(masked.requests.some((request) => maskedIn(request.contents) > 0)).toBe(true);
    expect(masked.summarizer.calls).toEqual([]);
    expect(plain.summarizer.calls).toEqual([]);
    // The window never came near the threshold: this is for cost, not room.
    expect(Math.max(...plain.requests.map((request) => request.promptTokens))).toBeLessThan(WINDOW / 2);
    expect(masked.cost).toBeLessThan(plain.cost * 0.8);
    // Visible: the status counts the maskings, the metric says they were for cost.
    const batches = masked.requests.filter(
      (request, i) => maskedIn(request.contents) > maskedIn(masked.requests[i - 1]?.contents ?? []),
    );
    expect(masked.status.maskings).toBe(batches.length);
    expect(plain.status.maskings).toBe(0);
    expect(await costMaskings()).toEqual(costMaskingsBefore + batches.length);
  });

  it('should never mask the in-flight turn, and keep each request of a turn starting with the previous one', async () => {
    const { requests } = await run();
    let batches = 0;
    for (let i = 0; i < requests.length; i++) {
      const contents = requests[i]!.contents;
      expect(maskedIn(contents.slice(turnStart(contents)))).toBe(0);
      const previous = requests[i - 1]?.contents;
      if (!previous) continue;
      const sameTurn = turnStart(previous) === turnStart(contents);
      const grew = maskedIn(contents) > maskedIn(previous);
      if (grew) batches++;
      // Between two batches each request starts with the previous one byte for byte. A batch may
      // come later in a turn too (here: once the turn's fresh result lifts the masked request over
      // the 2,048 tokens the provider caches), when it pays; the latest result is never masked.
      if (!grew) expect(JSON.stringify(contents.slice(0, previous.length))).toBe(JSON.stringify(previous));
      if (sameTurn) expect(maskedIn(contents.slice(-1))).toBe(0);
    }
    expect(batches).toBeGreaterThan(0);
  });

  it("should weigh the model's cached price: a masking that would cost more than the cache it breaks waits", async () => {
    // Ten turns of about 1,400 tokens each. Masking every result leaves a request under the 2,048
    // tokens the provider caches, billed whole on every call: dearer than re-reading the ~13,600
    // cached tokens at a 90% discount, so nothing is masked; with no discount it pays at once.
    const batch = { maskStaleOutputTokens: 2_000 };
    const discounted = await recallSession(true, batch, WINDOW);
    const undiscounted = await recallSession(true, { ...batch, prices: NO_CACHE_DISCOUNT }, WINDOW);
    const firstMasked = (requests: readonly { contents: Content[] }[]): number =>
      requests.findIndex((request) => maskedIn(request.contents) > 0);
    // At a turn's first call nothing is masked; later in a turn the fresh result lifts the masked
    // request over the minimum, and from there the masking pays: it waits for that.
    const { requests } = discounted.model;
    const batchAtTurnStart = requests.some(
      (request, i) =>
        request.contents.at(-1)?.parts?.[0]?.text !== undefined &&
        maskedIn(request.contents) > maskedIn(requests[i - 1]?.contents ?? []),
    );
    expect(batchAtTurnStart).toBe(false);
    expect(firstMasked(undiscounted.model.requests)).toBeGreaterThanOrEqual(0);
    expect(firstMasked(discounted.model.requests)).toBeGreaterThan(firstMasked(undiscounted.model.requests));
  });

  it('should leave a masked result recallable: the recall tool finds a detail masked for cost on a large window, the agent given it or not', async () => {
    // The detail sits in the first turn's tool result, past what its placeholder keeps; nothing is
    // summarized on this window. With no cache discount masking pays at once (at Gemini's, not before
    // the request outgrows ten turns). Wherever masking for cost is on, the guard declares the
    // recall tool itself when the agent has none, so both runs read the detail back.
    const options = {
      maskStaleOutputTokens: 2_000,
      prices: { 'scripted-model': { input: 1, cachedInput: 1, output: 1 } },
    };
    const withTool = await recallSession(true, options, WINDOW);
    const withoutTool = await recallSession(false, options, WINDOW);
    for (const run of [withTool, withoutTool]) {
      expect(run.lostFromContext).toBe(true);
      expect(run.model.requests.some((request) => maskedIn(request.contents) > 0)).toBe(true);
      expect(run.model.rejectedRequests).toEqual([]);
      expect(run.answer).toContain(PLANTED_CODE);
    }
  });
});

describe('the recall tool, declared only once something names it', () => {
  /** The function names each request declared, and the requests themselves, with or without a guard. */
  async function namesSent(withGuard: boolean, resultChars = 400) {
    const names: string[][] = [];
    const inner = toolThenAnswerScript(resultChars);
    const guard = new ContextGuard({ contextWindow: WINDOW, summarizer: new ScriptedSummarizer() });
    const harness = createHarness({
      window: WINDOW,
      ratio: 1.2,
      script: (call) => {
        const tools = call.request.config?.tools ?? [];
        names.push(
          tools
            .flatMap((tool) => ('functionDeclarations' in tool ? (tool.functionDeclarations ?? []) : []))
            .map((d) => d.name ?? ''),
        );
        return inner(call);
      },
      plugins: withGuard ? [guard] : [],
    });
    await harness.sessionAfterTurns(TURNS);
    return { names, requests: harness.model.requests };
  }

  it('should send exactly what ADK built, call for call, while the window holds and nothing is masked', async () => {
    // Masking for cost is on (the defaults, a large window), but these results never make a batch
    // worth masking: the guard adds no tool, and no call is dearer than with no guard at all.
    const guarded = await namesSent(true);
    const plain = await namesSent(false);
    expect(guarded.requests.every((request) => maskedIn(request.contents) === 0)).toBe(true);
    expect(guarded.names.flat()).not.toContain('recall_history');
    expect(guarded.names).toEqual(plain.names);
    expect(guarded.requests.map((request) => request.promptTokens)).toEqual(
      plain.requests.map((request) => request.promptTokens),
    );
    expect(guarded.requests.map((request) => request.cachedPromptTokens)).toEqual(
      plain.requests.map((request) => request.cachedPromptTokens),
    );
  });

  it('should declare it from the first call that masks, and on every call after', async () => {
    // Under the 10 KiB truncation limit: a cut result stored as an artifact would name the recall tool, and bring it in, first.
    const { names, requests } = await namesSent(true, 8_000);
    const first = requests.findIndex((request) => maskedIn(request.contents) > 0);
    expect(first).toBeGreaterThan(0);
    expect(names.slice(0, first).every((sent) => !sent.includes('recall_history'))).toBe(true);
    expect(names.slice(first).every((sent) => sent.includes('recall_history'))).toBe(true);
    // Before it, the prefix was never broken: each request started with the previous one.
    for (let i = 1; i < first; i++)
      expect(JSON.stringify(requests[i]!.contents.slice(0, requests[i - 1]!.contents.length))).toBe(
        JSON.stringify(requests[i - 1]!.contents),
      );
  });
});
