/**
 * The default summarizer (the agent's own model) is asked as a continuation of the agent's request:
 * same system instruction, tools and leading contents as the request the agent sent before, the
 * instruction last, tool calls off; the provider's cache serves the shared prefix. Real Runner,
 * real session service; the scripted model is the only stand-in.
 */
import { describe, expect, it } from 'vitest';
import type { LlmRequest } from '@google/adk';
import { ContextGuard } from '../../src/index.js';
import { decodeSummaryRecord, stateKeysFor } from '../../src/internal.js';
import { contentsText } from '../../src/testing/index.js';
import { createHarness, logsModel, toolThenAnswerScript } from '../support/agent-harness.js';

const SUMMARY_TEXT = 'SUMMARY-FROM-CACHE: logs fetched, latency normal.';
const isSummaryCall = (request: LlmRequest): boolean =>
  String(request.config?.toolConfig?.functionCallingConfig?.mode) === 'NONE';

describe('a summary asked of the agent own model', () => {
  it('shares the agent request prefix, is served from the cache and is applied as before', async () => {
    const seen: LlmRequest[] = [];
    const agentScript = toolThenAnswerScript(3_000);
    const model = logsModel({
      window: 8_000,
      script: (call) => {
        seen.push(
          structuredClone({
            contents: call.request.contents,
            config: { ...call.request.config, abortSignal: undefined },
          }) as LlmRequest,
        );
        if (isSummaryCall(call.request)) return { content: { role: 'model', parts: [{ text: SUMMARY_TEXT }] } };
        return agentScript(call);
      },
    });
    const guard = new ContextGuard({ contextWindow: 8_000, maskKeepRecent: 0, prepareTurnsAhead: 0 });
    const h = createHarness({ model, plugins: [guard] });
    const session = await h.startSession();
    let turn = 0;
    while (!seen.some(isSummaryCall) && turn < 12) {
      turn += 1;
      await h.runTurns(session.id, turn, { from: turn });
    }
    const at = seen.findIndex(isSummaryCall);
    expect(at).toBeGreaterThan(0);
    const summaryCall = seen[at] as LlmRequest;
    const previous = seen[at - 1] as LlmRequest;
    // Same system instruction and tool declarations; leading contents byte-identical to the previous request's.
    expect(JSON.stringify(summaryCall.config?.systemInstruction)).toBe(
      JSON.stringify(previous.config?.systemInstruction),
    );
    expect(JSON.stringify(summaryCall.config?.tools)).toBe(JSON.stringify(previous.config?.tools));
    const leading = summaryCall.contents.slice(0, -1);
    expect(leading.length).toBeGreaterThan(1);
    expect(JSON.stringify(leading)).toBe(JSON.stringify(previous.contents.slice(0, leading.length)));
    // The instruction is the last user turn.
    const last = summaryCall.contents[summaryCall.contents.length - 1];
    expect(last?.role).toBe('user');
    expect(contentsText([last!])).toContain('compact the conversation above');
    // The scripted provider's implicit cache served the shared prefix.
    const recorded = model.requests[at];
    expect(recorded?.cachedPromptTokens).toBeGreaterThan(0);
    // The summary text is applied as before: stored, and sent to the agent on its next call.
    const stored = decodeSummaryRecord((await h.storedSession(session.id)).state[stateKeysFor('worker').summary]);
    expect(stored?.text).toContain(SUMMARY_TEXT);
    expect(contentsText(seen[at + 1]?.contents ?? [])).toContain(SUMMARY_TEXT);
  });
});
