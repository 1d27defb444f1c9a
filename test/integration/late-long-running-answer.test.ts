/**
 * A tool answered turns after its call, after the guard compacted the turns between: a `LongRunningFunctionTool`
 * (its pending response is replaced by the final one) and a tool that needs the user's confirmation (the response
 * arrives where there was none). For the request of the late answer ADK (`rearrangeEventsForLatestFunctionResponse`)
 * sends only the events up to the call and the response; from the next request on it places the response right
 * after its call, inside what the stored summary and mask covered. The fourteenth outside trial saw the records
 * cleared at the late answer (a fresh summary of the raw history, the earlier summaries' facts lost); the sixteenth
 * saw them applied past the call: the response sent without its call, or stripped by a summary that never saw it
 * (the agent answered "I do not know"). The records are now cut at the call and stored so.
 */
import { LlmAgent, Runner, type BaseSessionService, type Event } from '@google/adk';
import { InMemorySessionService } from '@google/adk';
import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { decodeSummaryRecord, stateKeysFor, SUMMARY_MARKER } from '../../src/internal.js';
import { decodeMaskRecord } from '../../src/masking/mask-record.js';
import { CapturingLogger, ScriptedSummarizer } from '../../src/testing/index.js';
import { ratioTokenCounter, ScriptedLlm } from '../../src/testing/index.js';
import type { ContextGuardOptions } from '../../src/index.js';
import { APP_NAME, fetchLogsTool, summarizingGuard, USER_ID, userMessage } from '../support/agent-harness.js';
import { pairingViolations } from '../support/request-invariants.js';
import {
  deployJobScript,
  forgetful,
  jobTool,
  lateAnswer,
  RESULT,
  runContentTurn,
  textOf,
  type Gate,
} from '../support/deploy-job-script.js';

const WINDOW = 8_000;
const keys = stateKeysFor('ops');

/** A replica: its own model, guard and runner on the shared session service. */
function replica(sessionService: BaseSessionService, gate: Gate, options: ContextGuardOptions) {
  const model = new ScriptedLlm({
    window: WINDOW,
    countTokens: ratioTokenCounter(1.2),
    script: deployJobScript(3_000),
  });
  const agent = new LlmAgent({
    name: 'ops',
    model,
    instruction: 'You run deploys.',
    tools: [jobTool(gate), fetchLogsTool()],
  });
  const logger = new CapturingLogger();
  const summarizer = new ScriptedSummarizer();
  const guard = summarizingGuard({ logger, summarizer, ...options });
  const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] });
  return { model, logger, summarizer, runner };
}

/** A response sent without its call before it (ADK's own pending calls, sent unanswered, are not the guard's). */
const orphans = (contents: readonly Content[]): string[] =>
  pairingViolations(contents).filter((problem) => /^content \d+ answers/.test(problem));

/** `before` turns of logs, the job started, `after` turns of logs, on replica `a`; `b` answers the job late. */
async function sessionWithJob(gate: Gate, before: number, after: number, options: ContextGuardOptions, two: boolean) {
  const sessionService = new InMemorySessionService();
  const a = replica(sessionService, gate, options);
  const b = two ? replica(sessionService, gate, options) : a;
  const { id } = await sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
  const events: Event[] = [];
  for (let turn = 1; turn <= before; turn++)
    events.push(...(await runContentTurn(a.runner, id, userMessage(`Check logs ${turn}.`))));
  const started = await runContentTurn(a.runner, id, userMessage('Start the deploy job.'));
  events.push(...started);
  for (let turn = 1; turn <= after; turn++)
    events.push(...(await runContentTurn(a.runner, id, userMessage(`Check logs ${turn + before}.`))));
  const state = async () =>
    (await sessionService.getSession({ appName: APP_NAME, userId: USER_ID, sessionId: id }))?.state ?? {};
  return { a, b, id, events, state, late: lateAnswer(gate, started) };
}

describe('a tool answered late, after compactions', () => {
  it.each([
    ['long-running, started on the first turn', 'long-running', 0, 13, {}, false],
    [
      'long-running, started after twelve turns, its view alone over the threshold, summaries prepared',
      'long-running',
      12,
      13,
      { prepareTurnsAhead: 1 },
      false,
    ],
    ['long-running, started after twelve turns, with masking', 'long-running', 12, 30, { maskKeepRecent: 2 }, false],
    ['confirmed, asked after twelve turns', 'confirmation', 12, 13, {}, false],
    ['confirmed, with masking, on another replica', 'confirmation', 12, 30, { maskKeepRecent: 2 }, true],
    ['long-running, with masking, on another replica', 'long-running', 12, 30, { maskKeepRecent: 2 }, true],
  ] as const)('should send the answer with its call and keep it, %s', async (_, gate, before, after, options, two) => {
    const run = await sessionWithJob(gate, before, after, options, two);
    const stored = await run.state();
    const summary = decodeSummaryRecord(stored[keys.summary]);
    expect(summary?.compactions).toBeGreaterThanOrEqual(1);
    if ('maskKeepRecent' in options) expect(stored[keys.mask]).toBeDefined();
    const compactions = run.b.logger.matching('compacted contents').length;

    const from = run.b.model.requests.length;
    const logFrom = run.b.logger.lines.length;
    const answered = await runContentTurn(run.b.runner, run.id, run.late);
    const lateRequest = run.b.model.requests[from]?.contents ?? [];
    // ADK's view of the late answer: the history up to the call, shorter than what the summary covers.
    expect(lateRequest.length).toBeLessThan(summary?.covered ?? 0);
    // The stored summary, applied up to the call: the call and its answer follow it; no new summary made there.
    expect(textOf(lateRequest[0])).toContain(summary?.text.slice(0, 200));
    expect(lateRequest.at(-2)?.parts?.some((part) => part.functionCall?.name === 'start_job')).toBe(true);
    expect(JSON.stringify(lateRequest.at(-1))).toContain(RESULT);
    expect(orphans(lateRequest)).toEqual([]);
    expect(run.b.logger.matching('compacted contents')).toHaveLength(compactions);
    // Stored cut at the call: the next request, the whole history again, has the answer right after the call.
    const [line] = run.b.logger.matching('stored summary cut at the function call at content');
    const call = Number(/at content (\d+)/.exec(line?.message ?? '')?.[1]);
    const cut = await run.state();
    expect(decodeSummaryRecord(cut[keys.summary])).toMatchObject({ covered: call, text: summary?.text });
    expect(call).toBeLessThan(summary?.covered ?? 0);
    expect(decodeMaskRecord(cut[keys.mask])?.upTo ?? 0).toBeLessThanOrEqual(call);
    expect(run.b.logger.matching('stored summary not applied')).toEqual([]);
    const lateLines = run.b.logger.lines.slice(logFrom).map((line) => line.message);
    expect(lateLines.filter((line) => line.includes('prepared summary dropped'))).toEqual([]);

    const next = run.a.model.requests.length;
    const summariesBefore = run.a.summarizer.calls.length;
    const asked = await runContentTurn(run.a.runner, run.id, userMessage('What was the job result?'));
    const request = run.a.model.requests[next]?.contents ?? [];
    expect(textOf(request[0])).toContain(SUMMARY_MARKER);
    const answer = request.findIndex((content) =>
      content.parts?.some((part) => part.functionResponse?.name === 'start_job'),
    );
    if (answer >= 0) {
      expect(request[answer]?.parts?.[0]?.functionResponse?.response).toMatchObject({ result: RESULT });
      expect(request[answer - 1]?.parts?.[0]?.functionCall?.name).toBe('start_job');
      expect(asked.map((event) => textOf(event.content)).join(' ')).toContain(`The result was ${RESULT}.`);
    } else {
      // Sent whole from the call on, the history was over the threshold: a new summary covers the answer, made from it
      // (in one summarizer call or several, summary/summarize-covered.ts).
      const prompts = run.a.summarizer.calls.slice(summariesBefore).map((made) => made.prompt);
      expect(prompts.length).toBeGreaterThan(0);
      expect(prompts.some((prompt) => prompt.includes(RESULT))).toBe(true);
    }
    expect(orphans(request)).toEqual([]);
    expect([...run.events, ...answered, ...asked].filter((event) => event.errorCode)).toEqual([]);
  });
});

describe("the application's late answer under a summarizer that drops it", () => {
  it("should keep a long-running tool's final answer as a durable fact once summaries cover it", async () => {
    const run = await sessionWithJob('long-running', 2, 2, { summarizer: forgetful }, false);
    await runContentTurn(run.a.runner, run.id, run.late);
    for (let turn = 1; turn <= 12; turn++)
      await runContentTurn(run.a.runner, run.id, userMessage(`Check logs ${turn + 40}.`));
    const summary = decodeSummaryRecord((await run.state())[keys.summary]);
    expect(summary?.compactions).toBeGreaterThanOrEqual(2);
    const asked = await runContentTurn(run.a.runner, run.id, userMessage('What was the job result?'));
    // Long gone from the contents the model is sent; kept as the fact of what the application answered.
    const last = run.a.model.requests.at(-1)?.contents ?? [];
    const sent = last.some((content) => content.parts?.some((part) => part.functionResponse?.name === 'start_job'));
    expect(sent).toBe(false);
    expect(summary?.facts?.map((fact) => fact.text).join('\n')).toContain(RESULT);
    expect(asked.map((event) => textOf(event.content)).join(' ')).toContain(`The result was ${RESULT}.`);
  });
});
