/**
 * The persistence guarantees on PostgreSQL through ADK's DatabaseSessionService
 * (`@mikro-orm/postgresql`). Runs when POSTGRES_URL is set, for example
 * `postgres://postgres:postgres@127.0.0.1:5432/guard_test`; `.ci/run` starts a
 * local server and sets it, so CI always runs it.
 */
import { randomUUID } from 'node:crypto';
import { DatabaseSessionService, FunctionTool, LlmAgent, Runner, type BaseSessionService } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { SUMMARY_MARKER, decodeSummaryRecord, decodeUsageRecord, stateKeysFor } from '../../src/internal.js';
import {
  APP_NAME,
  USER_ID,
  createHarness,
  errorCodes,
  logsModel,
  runTurn,
  summarizingGuard,
  toolThenAnswerScript,
  storedSession,
} from '../support/agent-harness.js';
import { CapturingLogger, logText, ScriptedSummarizer } from '../../src/testing/index.js';
import { summaryText } from '../support/request-invariants.js';

const url = process.env['POSTGRES_URL'];
const keys = stateKeysFor('worker');

/**
 * An agent whose tool answers with several keys in an order PostgreSQL's jsonb does not keep (it
 * stores keys by length, then bytes: `{ service, logs, at }` comes back as `{ at, logs, service }`),
 * so every reloaded tool result differs in key order from the one the guard saw in its turn.
 */
function reorderedKeysRunner(sessionService: BaseSessionService, guard: ReturnType<typeof summarizingGuard>) {
  const tool = new FunctionTool({
    name: 'fetch_logs',
    description: 'Returns server logs.',
    parameters: { type: 'OBJECT', properties: { seed: { type: 'INTEGER' } }, required: ['seed'] } as never,
    execute: (input: unknown) => {
      const { seed } = input as { seed: number };
      return { service: 'api', logs: logText(3_000, seed), at: { zone: 'eu', second: seed } };
    },
  });
  let steps = 0;
  const model = logsModel({
    window: 8_000,
    ratio: 1.8,
    // A tool loop: twelve calls in one turn (compacted within it), none when the user asks for none.
    script: ({ request }) => {
      const last = request.contents.at(-1);
      const asked = last?.parts?.[0]?.functionResponse === undefined;
      steps = asked ? 0 : steps + 1;
      if (asked && /No tools/.test(JSON.stringify(last ?? {})))
        return { content: { role: 'model', parts: [{ text: 'Nothing new to check.' }] } };
      if (steps < 12)
        return {
          content: { role: 'model', parts: [{ functionCall: { name: 'fetch_logs', args: { seed: 100 + steps } } }] },
        };
      return { content: { role: 'model', parts: [{ text: `Analysis after ${steps} steps: normal latency.` }] } };
    },
  });
  const agent = new LlmAgent({ name: 'worker', model, instruction: 'You analyse server logs.', tools: [tool] });
  return { runner: new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] }), model };
}

describe.skipIf(!url)('persistence with DatabaseSessionService on PostgreSQL', () => {
  it('should pick up the summary and watermark after a restart without recomputing them', async () => {
    const firstStore = new DatabaseSessionService(url!);
    await firstStore.init();
    // Every turn reloads the session: the tool calls' arguments come back with their keys in jsonb's order.
    const firstLogger = new CapturingLogger();
    const first = createHarness({
      window: 8_000,
      ratio: 1.8,
      script: toolThenAnswerScript(3_000),
      sessionService: firstStore,
      // Summaries made in the call: masking alone would make room here, and preparing ahead adds summarizer calls.
      plugins: [summarizingGuard({ logger: firstLogger })],
    });
    const session = await firstStore.createSession({
      appName: APP_NAME,
      userId: USER_ID,
      sessionId: `pg-${randomUUID()}`,
    });
    await first.runTurns(session.id, 10);
    expect(first.model.rejectedRequests).toEqual([]);
    expect(firstLogger.matching(/not applied/)).toEqual([]);
    const before = await storedSession(firstStore, session.id);
    const summary = decodeSummaryRecord(before.state[keys.summary]);
    expect(summary).toBeDefined();

    const secondStore = new DatabaseSessionService(url!);
    await secondStore.init();
    const summarizer = new ScriptedSummarizer();
    const second = createHarness({
      window: 8_000,
      ratio: 1.8,
      script: toolThenAnswerScript(0),
      sessionService: secondStore,
      plugins: [summarizingGuard({ summarizer })],
    });
    await runTurn(second.runner, session.id, 'Where are we? No tools.');
    expect(second.model.requests[0]!.contents[0]?.parts?.[0]?.text?.startsWith(SUMMARY_MARKER)).toBe(true);
    expect(summarizer.calls).toHaveLength(0);
    const after = await storedSession(secondStore, session.id);
    expect(after.events.length).toBeGreaterThan(before.events.length);
    expect(decodeUsageRecord(after.state[keys.usage]).compactions).toBe(
      decodeUsageRecord(before.state[keys.usage]).compactions,
    );
  });

  it('should apply, on the next turn, a summary made inside a tool loop whose results PostgreSQL stores with their keys reordered', async () => {
    const store = new DatabaseSessionService(url!);
    await store.init();
    const first = reorderedKeysRunner(store, summarizingGuard());
    const session = await store.createSession({ appName: APP_NAME, userId: USER_ID, sessionId: `pg-${randomUUID()}` });
    expect(errorCodes(await runTurn(first.runner, session.id, 'Check the logs, step by step.'))).toEqual([]);
    expect(first.model.rejectedRequests).toEqual([]);
    expect(decodeSummaryRecord((await storedSession(store, session.id)).state[keys.summary])).toBeDefined();

    const logger = new CapturingLogger();
    const summarizer = new ScriptedSummarizer();
    const second = reorderedKeysRunner(store, summarizingGuard({ summarizer, logger }));
    await runTurn(second.runner, session.id, 'Where are we? No tools.');
    expect(logger.matching(/not applied/)).toEqual([]);
    // The summary is applied: first, or after the tool loop's message it keeps.
    expect(summaryText(second.model.requests[0]!.contents)).toBeDefined();
    expect(summarizer.calls).toHaveLength(0);
  });
});
