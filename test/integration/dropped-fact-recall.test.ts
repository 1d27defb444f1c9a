/**
 * Review 10: a durable fact dropped by the count cap (60) is gone from every later summary, but the user's message
 * that stated it is an event of the session, never deleted: `recall_history` still finds it word for word.
 */
import { InMemorySessionService, LlmAgent, Runner } from '@google/adk';
import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { ContextGuard, contextRecallTool } from '../../src/index.js';
import { decodeSummaryRecord, RECALL_TOOL_NAME, stateKeysFor } from '../../src/internal.js';
import { logText, ratioTokenCounter, ScriptedLlm, type ModelScript } from '../../src/testing/index.js';
import { forgetfulSummarizer } from '../../simulator/recall.js';
import { APP_NAME, runTurn, startSession, storedSession } from '../support/agent-harness.js';

const WINDOW = 32_000;
const QUESTION = /^Which rack does deploy code (D-\d+) go to\?$/;
const fact = (i: number): string => `Deploy code D-${1_000 + i} goes to rack R-${500 + i}.`;

/** Answers at length; on the question, recalls once and answers with what the recall returned. */
const script: ModelScript = ({ request }) => {
  const contents: Content[] = request.contents;
  const last = contents.at(-1);
  const response = last?.parts?.find((part) => part.functionResponse?.name === RECALL_TOOL_NAME);
  if (response) return { content: { role: 'model', parts: [{ text: JSON.stringify(response.functionResponse) }] } };
  const code = QUESTION.exec(last?.parts?.[0]?.text ?? '')?.[1];
  if (code)
    return { content: { role: 'model', parts: [{ functionCall: { name: RECALL_TOOL_NAME, args: { query: code } } }] } };
  return { content: { role: 'model', parts: [{ text: `Noted. ${logText(2_500, contents.length)}` }] } };
};

describe('review 10: a durable fact dropped by the count cap', () => {
  it('should be gone from the summary and still found by recall_history, word for word', async () => {
    const dropped: string[] = [];
    const guard = new ContextGuard({ contextWindow: WINDOW, summarizer: forgetfulSummarizer, maskKeepRecent: 0 });
    guard.onCompaction((record) => void dropped.push(...(record.droppedFacts ?? [])));
    const model = new ScriptedLlm({ window: WINDOW, countTokens: ratioTokenCounter(1.2), script });
    const agent = new LlmAgent({ name: 'worker', model, instruction: 'Track deploys.', tools: [contextRecallTool()] });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] });
    const session = await startSession(sessionService);
    for (let i = 0; i < 90; i++) await runTurn(runner, session.id, fact(i));
    const summary = decodeSummaryRecord(
      (await storedSession(sessionService, session.id)).state[stateKeysFor('worker').summary],
    )!;
    expect(summary.facts).toHaveLength(60);
    const lost = dropped[0]!;
    expect(summary.facts?.map((f) => f.text)).not.toContain(lost);
    const code = /D-\d+/.exec(lost)![0];
    const events = await runTurn(runner, session.id, `Which rack does deploy code ${code} go to?`);
    const answer = events.at(-1)?.content?.parts?.[0]?.text ?? '';
    expect(answer).toContain(lost);
    // First the message that stated it, not the question just asked (the fifty-second outside trial).
    const hits = (JSON.parse(answer) as { response: { hits: Array<{ snippet: string }> } }).response.hits;
    expect(hits[0]?.snippet).toContain(lost);
    expect(model.rejectedRequests).toEqual([]);
  });
});
