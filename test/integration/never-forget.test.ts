/**
 * Issue 7 through a real Runner: a detail lost from the summaries is recovered
 * with the recall tool (and not without it), pins ride verbatim in every
 * request, and durable facts survive repeated summaries word for word.
 */
import { FunctionTool, InMemorySessionService, LlmAgent, Runner } from '@google/adk';
import { describe, expect, it } from 'vitest';
import {
  ContextGuard,
  ContextGuardPinError,
  contextRecallTool,
  pinContextTool,
  type Summarizer,
} from '../../src/index.js';
import {
  PINNED_MARKER,
  RECALL_TOOL_NAME,
  SUMMARY_MARKER,
  decodeSummaryRecord,
  stateKeysFor,
} from '../../src/internal.js';
import { contentsText, logText, ratioTokenCounter, ScriptedLlm, type ModelScript } from '../../src/testing/index.js';
import { APP_NAME, createHarness, runTurn, startSession, runTurns } from '../support/agent-harness.js';

const WINDOW = 8_000;
const SECRET = 'TRK-99812-ZQ';

/** A summarizer that keeps nothing specific, like a careless model. */
const lossySummarizer: Summarizer = {
  name: 'lossy',
  summarize: async () => ({
    text: '## Current state\nThe user and the agent looked at several logs.',
    finishReason: 'STOP',
  }),
};

/**
 * Turn 1 returns a log with the tracking code buried in it; later turns fetch big logs;
 * the final question asks for the code. The model answers only from what it was sent,
 * and uses the recall tool when it has one.
 */
const recallScript: ModelScript = ({ request }) => {
  const contents = request.contents;
  const last = contents[contents.length - 1];
  const lastUser = [...contents]
    .reverse()
    .find(
      (content) =>
        content.role === 'user' && content.parts?.some((part) => part.text && !part.text.startsWith('[context_guard')),
    );
  const question = lastUser?.parts?.find((part) => part.text)?.text ?? '';
  const responses = last?.parts?.filter((part) => part.functionResponse) ?? [];
  if (question.startsWith('What was the tracking code')) {
    const seen = contentsText(contents);
    const match = /TRK-\d+-[A-Z]+/.exec(seen);
    if (match) return { content: { role: 'model', parts: [{ text: `The tracking code is ${match[0]}.` }] } };
    const hasRecall = RECALL_TOOL_NAME in request.toolsDict;
    if (hasRecall && !responses.some((part) => part.functionResponse?.name === RECALL_TOOL_NAME)) {
      return {
        content: {
          role: 'model',
          parts: [{ functionCall: { name: RECALL_TOOL_NAME, args: { query: 'tracking code' } } }],
        },
      };
    }
    return { content: { role: 'model', parts: [{ text: 'I no longer have the tracking code.' }] } };
  }
  if (responses.length === 0) {
    const size = question.startsWith('Turn 1:') ? 600 : 3_000;
    return {
      content: {
        role: 'model',
        parts: [{ functionCall: { name: 'fetch_logs', args: { size, seed: contents.length } } }],
      },
    };
  }
  return { content: { role: 'model', parts: [{ text: `Looked at the logs. ${logText(150, contents.length)}` }] } };
};

async function recallRun(withTool: boolean): Promise<string> {
  const model = new ScriptedLlm({ window: WINDOW, countTokens: ratioTokenCounter(1.8), script: recallScript });
  const tools = [
    new FunctionTool({
      name: 'fetch_logs',
      description: 'Returns server logs.',
      parameters: { type: 'OBJECT', properties: { size: { type: 'INTEGER' }, seed: { type: 'INTEGER' } } } as never,
      execute: (input: unknown) => {
        const { size, seed } = input as { size: number; seed: number };
        const logs = logText(size, seed);
        return {
          logs: size === 600 ? `${logs.slice(0, 300)} shipment tracking code ${SECRET} ${logs.slice(300)}` : logs,
        };
      },
    }),
    ...(withTool ? [contextRecallTool()] : []),
  ];
  const agent = new LlmAgent({ name: 'worker', model, instruction: 'You analyse logs.', tools });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({
    appName: APP_NAME,
    agent,
    sessionService,
    // What the summaries lost: masking off, so the early turns are summarized, not masked.
    plugins: [new ContextGuard({ contextWindow: WINDOW, summarizer: lossySummarizer, maskKeepRecent: 0 })],
  });
  const session = await startSession(sessionService);
  await runTurns(runner, session.id, 10, { ask: 'fetch the logs.' });
  // The code is gone from what the model is sent by now.
  expect(contentsText(model.requests[model.requests.length - 1]!.contents)).not.toContain(SECRET);
  const events = await runTurn(runner, session.id, 'What was the tracking code in the first log?');
  expect(model.rejectedRequests).toEqual([]);
  const lastRequest = model.requests[model.requests.length - 1]!;
  if (withTool) expect(lastRequest.contents[0]?.parts?.[0]?.text).toContain(`call \`${RECALL_TOOL_NAME}\``);
  return events
    .flatMap((event) => event.content?.parts ?? [])
    .map((part) => part.text ?? '')
    .join(' ');
}

describe('never forget', () => {
  it('should recover an exact detail the summaries lost with the recall tool, and not without it', async () => {
    expect(await recallRun(true)).toContain(SECRET);
    expect(await recallRun(false)).not.toContain(SECRET);
  });

  it('should carry application pins and the pinned first request verbatim in every request across compactions', async () => {
    // Pins must ride through summaries: masking off, so summaries happen.
    const guard = new ContextGuard({
      contextWindow: WINDOW,
      summarizer: lossySummarizer,
      pinFirstRequest: true,
      maskKeepRecent: 0,
    });
    const script: ModelScript = ({ request }) => {
      const last = request.contents[request.contents.length - 1];
      if (last?.parts?.some((part) => part.functionResponse))
        return { content: { role: 'model', parts: [{ text: 'Done.' }] } };
      return {
        content: {
          role: 'model',
          parts: [{ functionCall: { name: 'fetch_logs', args: { size: 3_000, seed: request.contents.length } } }],
        },
      };
    };
    const harness = createHarness({ window: WINDOW, ratio: 1.8, script, plugins: [guard] });
    const session = await harness.startSession();
    await runTurn(harness.runner, session.id, 'Audit the payment service logs for the March outage.');
    const stored = await harness.storedSession(session.id);
    await guard.pin({
      sessionService: harness.sessionService,
      session: stored,
      text: 'Customer account: ACME-204 (enterprise tier)',
    });
    await harness.runTurns(session.id, 10, { from: 2, ask: 'next batch.' });

    const after = await harness.storedSession(session.id);
    expect(decodeSummaryRecord(after.state[stateKeysFor('worker').summary])?.compactions).toBeGreaterThan(1);
    const laterRequests = harness.model.requests.filter((request) => request.index > 2);
    for (const request of laterRequests) {
      const pinned = request.contents[0]?.parts?.[0]?.text ?? '';
      expect(pinned.startsWith(PINNED_MARKER)).toBe(true);
      expect(pinned).toContain('Customer account: ACME-204 (enterprise tier)');
      expect(pinned).toContain('Audit the payment service logs for the March outage.');
    }
    expect(harness.model.rejectedRequests).toEqual([]);

    // Pins alone may not crowd out the conversation: 10% of 8,000 tokens.
    await expect(
      guard.pin({ sessionService: harness.sessionService, session: after, text: logText(8_000, 3) }),
    ).rejects.toBeInstanceOf(ContextGuardPinError);
  });

  it('should let the model pin a fact with the pin tool', async () => {
    const guard = new ContextGuard({ contextWindow: WINDOW, summarizer: lossySummarizer });
    const script: ModelScript = ({ request }) => {
      const last = request.contents[request.contents.length - 1];
      if (last?.parts?.some((part) => part.functionResponse))
        return { content: { role: 'model', parts: [{ text: 'Noted.' }] } };
      return {
        content: {
          role: 'model',
          parts: [{ functionCall: { name: 'pin_context', args: { fact: 'Budget cap: 4,000 EUR' } } }],
        },
      };
    };
    const model = new ScriptedLlm({ window: WINDOW, countTokens: ratioTokenCounter(1.8), script });
    const agent = new LlmAgent({
      name: 'worker',
      model,
      instruction: 'Plan the trip.',
      tools: [pinContextTool(guard)],
    });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] });
    const session = await startSession(sessionService);
    await runTurn(runner, session.id, 'Our budget is at most 4,000 EUR; remember it.');
    await runTurn(runner, session.id, 'Next question.');
    const last = model.requests[model.requests.length - 1]!;
    expect(last.contents[0]?.parts?.[0]?.text).toContain('Budget cap: 4,000 EUR');
  });

  it('should keep durable facts word for word through many summaries that forget them', async () => {
    // Facts must survive summaries of summaries: masking off, so summaries happen.
    const guard = new ContextGuard({ contextWindow: WINDOW, summarizer: lossySummarizer, maskKeepRecent: 0 });
    const script: ModelScript = ({ request }) => {
      const last = request.contents[request.contents.length - 1];
      if (last?.parts?.some((part) => part.functionResponse))
        return { content: { role: 'model', parts: [{ text: `Checked. ${logText(100, request.contents.length)}` }] } };
      return {
        content: {
          role: 'model',
          parts: [{ functionCall: { name: 'fetch_logs', args: { size: 3_000, seed: request.contents.length } } }],
        },
      };
    };
    const harness = createHarness({ window: WINDOW, ratio: 1.8, script, plugins: [guard] });
    const session = await harness.startSession();
    await runTurn(
      harness.runner,
      session.id,
      'The project id is P-4431. Never deploy on Fridays. Start with the API logs.',
    );
    await harness.runTurns(session.id, 25, { from: 2, ask: 'continue.' });
    const stored = await harness.storedSession(session.id);
    const summary = decodeSummaryRecord(stored.state[stateKeysFor('worker').summary])!;
    expect(summary.compactions).toBeGreaterThanOrEqual(5);
    expect(summary.facts?.map((fact) => fact.text)).toEqual(
      expect.arrayContaining(['The project id is P-4431.', 'Never deploy on Fridays.']),
    );
    const finalRequest = harness.model.requests[harness.model.requests.length - 1]!;
    const first = finalRequest.contents[0]?.parts?.[0]?.text ?? '';
    expect(first.startsWith(SUMMARY_MARKER)).toBe(true);
    expect(first).toContain('- The project id is P-4431.');
    expect(first).toContain('- Never deploy on Fridays.');
    expect(harness.model.rejectedRequests).toEqual([]);
  });
});
