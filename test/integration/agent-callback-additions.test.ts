/**
 * An agent's own beforeModelCallback runs after the plugins' (ADK 2.0), so it can add to a request
 * the guard has already measured. The guard measures the request as the callback left it after the
 * model call and carries the addition into the next request's fixed part: the correction stays the
 * tokenizer's, and a block the guard cannot remove does not make it compact on every turn.
 */
import { describe, expect, it } from 'vitest';
import { FunctionTool, type SingleBeforeModelCallback } from '@google/adk';
import type { Content } from '@google/genai';
import { FAULT_APP, FAULT_USER, faultHarness } from '../support/fault-harness.js';

const TURNS = 30;
const BLOCK_TEXT = 'Every answer cites the runbook section it relies on. '.repeat(80);

/** Appends `repeats` sentences to the system instruction on every call, as a newcomer's app did. */
function appendingCallback(repeats: number): SingleBeforeModelCallback {
  const block = 'Reference sheet: every answer must cite the runbook section it relies on. '.repeat(repeats);
  return ({ request }) => {
    request.config = request.config ?? {};
    // ADK builds the system instruction as a string.
    const instruction = request.config.systemInstruction;
    request.config.systemInstruction = `${typeof instruction === 'string' ? instruction : ''}\n${block}`;
    return undefined;
  };
}

/** Declares a tool on every call as ADK's own step does: into the declarations already listed, in place. */
function declaringCallback(description: string): SingleBeforeModelCallback {
  const tool = new FunctionTool({ name: 'runbook', description, execute: () => 'unused' });
  return async ({ request }) => {
    await tool.processLlmRequest({ toolContext: undefined as never, llmRequest: request });
    return undefined;
  };
}

describe("content an agent's own beforeModelCallback adds", () => {
  it('should measure a tool the callback declares into the listed tool in place, as ADK declares one', async () => {
    const h = await faultHarness({ toolChars: 300, beforeModelCallback: declaringCallback(BLOCK_TEXT) });
    for (let turn = 1; turn <= 3; turn++) expect((await h.turn(`Turn ${turn}: please help.`)).thrown).toBeUndefined();
    // The declaration's description alone is ~1,000 heuristic tokens; before, the same tool objects counted as nothing added.
    expect((await h.usage()).agentAddedTokens).toBeGreaterThan(800);
  });

  it('should not compact on every turn when the callback adds a large block after the guard measured', async () => {
    // ~6,000 real tokens of 8,000 added on each call: with the history, every request is near the threshold.
    const h = await faultHarness({ toolChars: 300, beforeModelCallback: appendingCallback(300) });
    for (let turn = 1; turn <= TURNS; turn++)
      expect((await h.turn(`Turn ${turn}: please help.`)).thrown).toBeUndefined();
    // Before: 29 compactions in 30 turns.
    expect(h.records.length).toBeLessThanOrEqual(TURNS / 2);
    expect(h.model.rejectedRequests).toHaveLength(0);
    const usage = await h.usage();
    // The addition is measured, not folded into the correction (before: clamped at its maximum, 5).
    expect(usage.agentAddedTokens).toBeGreaterThan(4_000);
    expect(usage.learnedCorrection).toBeLessThan(1.5);
  });

  it('should compact only when the real request reaches the threshold', async () => {
    const h = await faultHarness({ toolChars: 300, beforeModelCallback: appendingCallback(200) });
    for (let turn = 1; turn <= TURNS; turn++) await h.turn(`Turn ${turn}: please help.`);
    expect(h.model.rejectedRequests).toHaveLength(0);
    const threshold = (await h.usage()).threshold ?? 0;
    // Each compaction was due: the request the model got just before it was within a turn of the threshold.
    const sent = h.model.requests.map((request) => request.promptTokens);
    const largest = Math.max(...sent);
    expect(largest).toBeGreaterThan(threshold * 0.9);
    expect(h.records.length).toBeLessThanOrEqual(4);
  });

  it('should learn the tokenizer, not the removal, from a callback that drops history, and credit no removal', async () => {
    let dropping = true;
    // Keeps the last four contents while `dropping` (a newcomer's "short memory" callback), then stops.
    const dropHistory: SingleBeforeModelCallback = ({ request }) => {
      if (dropping && request.contents.length > 4) request.contents = request.contents.slice(-4);
      return undefined;
    };
    // The scripted provider counts 1.3 times the heuristic, so the tokenizer's correction is about 1.25.
    const h = await faultHarness({ toolChars: 1_200, beforeModelCallback: dropHistory });
    const statusNow = async () => {
      const session = await h.sessionService.getSession({
        appName: FAULT_APP,
        userId: FAULT_USER,
        sessionId: h.sessionId,
      });
      return (session ? h.guard.status(session) : []).find((agent) => agent.agentName === 'worker');
    };
    let largestGap = 0;
    for (let turn = 1; turn <= 8; turn++) {
      expect((await h.turn(`Turn ${turn}: please help.`)).thrown).toBeUndefined();
      const worker = await statusNow();
      // Paired with the quarter the callback sent (before: with the whole, 0.68 on the 2nd turn down to 0.17 on the
      // 8th, and the correction worn down to its floor of 1: the whole request was estimated 25% short).
      expect(worker?.realToEstimateRatio ?? 0).toBeGreaterThan(1.1);
      expect(worker?.correction ?? 0).toBeGreaterThan(1.1);
      largestGap = Math.max(largestGap, (worker?.estimatedTokens ?? 0) / (worker?.lastRealPromptTokens ?? Infinity));
    }
    // The guard's own measure is of the whole request; the provider counted the quarter the callback sent.
    expect(largestGap).toBeGreaterThan(3);
    dropping = false;
    for (let turn = 9; turn <= 16; turn++) expect((await h.turn(`Turn ${turn}: please help.`)).thrown).toBeUndefined();
    expect(h.model.rejectedRequests).toHaveLength(0);
    expect(h.overWindow()).toHaveLength(0);
  });

  it.each<[string, (result: { name?: string; response?: Record<string, unknown> }, last: Content) => void]>([
    [
      'replaces its parts',
      (result, last) => {
        const logs = JSON.stringify(result.response).slice(0, 300);
        last.parts = [{ functionResponse: { name: result.name, response: { logs } } }];
      },
    ],
    [
      'cuts a field of its response',
      (result) => void (result.response!['logs'] = String(result.response!['logs']).slice(0, 300)),
    ],
    [
      'swaps its functionResponse',
      (result, last) => {
        const logs = String(result.response!['logs']).slice(0, 300);
        last.parts![0]!.functionResponse = { name: result.name, response: { logs } };
      },
    ],
  ])(
    'should learn the tokenizer, not the edit, from a callback that trims the newest tool result in place: %s',
    async (_how, trim) => {
      // Cuts the newest tool result to 300 characters where it stands, after the guard measured it.
      const trimNewest: SingleBeforeModelCallback = ({ request }) => {
        const last = request.contents.at(-1);
        const result = last?.parts?.find((part) => part.functionResponse)?.functionResponse;
        if (last && result?.response) trim(result, last);
        return undefined;
      };
      const h = await faultHarness({ toolChars: 3_000, beforeModelCallback: trimNewest });
      for (let turn = 1; turn <= 8; turn++) {
        expect((await h.turn(`Turn ${turn}: please help.`)).thrown).toBeUndefined();
        // About 1.25 untrimmed on this harness; before, each pair of a trimmed request with the whole result's
        // estimate took the correction to its floor of 1 from the first turn on.
        if (turn > 1) expect((await h.usage()).learnedCorrection ?? 0).toBeGreaterThan(1.15);
      }
      expect(h.model.rejectedRequests).toHaveLength(0);
    },
  );

  it('should carry, not learn, a block the callback appends to the first user message in place', async () => {
    const appendToFirst: SingleBeforeModelCallback = ({ request }) => {
      const text = request.contents[0]?.parts?.[0];
      if (text?.text !== undefined) text.text += `\n${BLOCK_TEXT}`;
      return undefined;
    };
    const h = await faultHarness({ toolChars: 300, beforeModelCallback: appendToFirst });
    for (let turn = 1; turn <= 6; turn++) expect((await h.turn(`Turn ${turn}: please help.`)).thrown).toBeUndefined();
    const usage = await h.usage();
    // Measured as the callback's addition (before: folded into the correction, about 1.9 by the 6th turn).
    expect(usage.agentAddedTokens ?? 0).toBeGreaterThan(600);
    expect(usage.learnedCorrection ?? 0).toBeLessThan(1.5);
    expect(h.model.rejectedRequests).toHaveLength(0);
  });
});
