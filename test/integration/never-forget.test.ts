/**
 * Issue 7 through a real Runner: a detail lost from the summaries is recovered
 * with the recall tool (and not without it), pins ride verbatim in every
 * request, and durable facts survive repeated summaries word for word.
 */
import { InMemorySessionService, LlmAgent, Runner } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard, ContextGuardPinError, pinContextTool } from '../../src/index.js';
import {
  PINNED_MARKER,
  RECALL_TOOL_NAME,
  SUMMARY_MARKER,
  decodeSummaryRecord,
  stateKeysFor,
} from '../../src/internal.js';
import { logText, ratioTokenCounter, ScriptedLlm, type ScriptCall } from '../../src/testing/index.js';
import { forgetfulSummarizer, PLANTED_CODE, recallSession } from '../../simulator/recall.js';
import { callThenAnswer } from '../support/call-then-answer.js';
import { APP_NAME, createHarness, runTurn, startSession } from '../support/agent-harness.js';

const WINDOW = 8_000;

/** The recall experiment's session, with masking off so that the early turns are summarized, not masked. */
async function recallRun(withTool: boolean): Promise<string> {
  const { model, answer, lostFromContext } = await recallSession(withTool, { maskKeepRecent: 0 });
  // The code was gone from what the model was sent before the question.
  expect(lostFromContext).toBe(true);
  expect(model.rejectedRequests).toEqual([]);
  const lastRequest = model.requests[model.requests.length - 1]!;
  if (withTool) expect(lastRequest.contents[0]?.parts?.[0]?.text).toContain(`call \`${RECALL_TOOL_NAME}\``);
  return answer;
}

/** A 3,000-character log, seeded by the conversation's length. */
const bigLogCall = ({ request }: ScriptCall) => ({
  name: 'fetch_logs',
  args: { size: 3_000, seed: request.contents.length },
});

describe('never forget', () => {
  it('should recover an exact detail the summaries lost with the recall tool, and not without it', async () => {
    expect(await recallRun(true)).toContain(PLANTED_CODE);
    expect(await recallRun(false)).not.toContain(PLANTED_CODE);
  });

  it('should carry application pins and the pinned first request verbatim in every request across compactions', async () => {
    // Pins must ride through summaries: masking off, so summaries happen.
    const guard = new ContextGuard({
      contextWindow: WINDOW,
      summarizer: forgetfulSummarizer,
      pinFirstRequest: true,
      maskKeepRecent: 0,
    });
    const script = callThenAnswer({ call: bigLogCall, answer: () => 'Done.' });
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
    const guard = new ContextGuard({ contextWindow: WINDOW, summarizer: forgetfulSummarizer });
    const script = callThenAnswer({
      call: () => ({ name: 'pin_context', args: { fact: 'Budget cap: 4,000 EUR' } }),
      answer: () => 'Noted.',
    });
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
    const guard = new ContextGuard({ contextWindow: WINDOW, summarizer: forgetfulSummarizer, maskKeepRecent: 0 });
    const script = callThenAnswer({
      call: bigLogCall,
      answer: ({ request }) => `Checked. ${logText(100, request.contents.length)}`,
    });
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

  it('should keep a fact the user asked to remember through many pasted logs, whose lines hold identifiers too', async () => {
    // The eighth outside trial: each pasted log line with an id became a durable fact, and the order id the user
    // asked to be remembered at turn 2 was dropped as the least recently seen after four summaries.
    const guard = new ContextGuard({ contextWindow: 16_000, summarizer: forgetfulSummarizer, maskKeepRecent: 0 });
    const script = callThenAnswer({ call: () => undefined, answer: () => 'Noted.' });
    const harness = createHarness({ window: 16_000, ratio: 1.2, script, plugins: [guard] });
    const session = await harness.startSession();
    await runTurn(harness.runner, session.id, 'Hello.');
    await runTurn(harness.runner, session.id, 'Remember: my order id is ORD-7731.');
    for (let turn = 0; turn < 30; turn++)
      await runTurn(harness.runner, session.id, `Here is the log:\n${logText(4_000, turn + 1)}`);
    await runTurn(harness.runner, session.id, 'What is my order id?');
    const stored = await harness.storedSession(session.id);
    const summary = decodeSummaryRecord(stored.state[stateKeysFor('worker').summary])!;
    expect(summary.compactions).toBeGreaterThanOrEqual(3);
    const last = harness.model.requests.at(-1)!;
    expect(JSON.stringify(last.contents)).toContain('ORD-7731');
    expect(summary.facts?.map((fact) => fact.text)).toContain('Remember: my order id is ORD-7731.');
  });
});
