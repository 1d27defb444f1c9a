/**
 * A `LongRunningFunctionTool` answered turns later, after the guard compacted the turn that started it (the
 * fourteenth outside trial). For the request of the late answer ADK (`rearrangeEventsForLatestFunctionResponse`)
 * sends only the events up to the function call and the response: the stored summary's watermark is past that
 * view's end. The guard used to clear the summary and the mask there, so the next turn, with the whole history again,
 * had nothing to apply: a fresh summary over the raw history, the earlier summaries' facts lost. The records now stay
 * stored, and the next request has the summary again.
 */
import { InMemorySessionService, LlmAgent, LongRunningFunctionTool, Runner, type Event } from '@google/adk';
import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { decodeSummaryRecord, stateKeysFor, SUMMARY_MARKER } from '../../src/internal.js';
import { CapturingLogger, contentsText, type ModelScript } from '../../src/testing/index.js';
import { ratioTokenCounter, ScriptedLlm } from '../../src/testing/index.js';
import type { ContextGuardOptions } from '../../src/index.js';
import { APP_NAME, fetchLogsTool, summarizingGuard, USER_ID, userMessage } from '../support/agent-harness.js';

const WINDOW = 8_000;
const keys = stateKeysFor('ops');

const textOf = (content: Content | undefined): string =>
  (content?.parts ?? []).map((part) => (typeof part.text === 'string' ? part.text : '')).join('');

/** Each page of logs its own: a page repeated would repeat a summary's anchor elsewhere in the history. */
let pages = 0;

const script: ModelScript = ({ request }) => {
  const last = request.contents.at(-1);
  const response = last?.parts?.find((part) => part.functionResponse)?.functionResponse;
  if (response?.name === 'start_job') {
    const result = response.response as { status?: string; result?: string };
    const text = result.status === 'done' ? `Job finished: ${result.result}.` : 'Job started, ticket JOB-77.';
    return { content: { role: 'model', parts: [{ text }] } };
  }
  if (response) return { content: { role: 'model', parts: [{ text: 'Logs read.' }] } };
  const text = textOf(last);
  if (text.startsWith('Start'))
    return { content: { role: 'model', parts: [{ functionCall: { name: 'start_job', args: { target: 'prod' } } }] } };
  if (text.startsWith('Check'))
    return {
      content: {
        role: 'model',
        parts: [{ functionCall: { name: 'fetch_logs', args: { size: 3_000, seed: (pages += 1) } } }],
      },
    };
  return {
    content: { role: 'model', parts: [{ text: `Seen: ${contentsText(request.contents).length} characters.` }] },
  };
};

async function runTurn(runner: Runner, sessionId: string, newMessage: Content): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId: USER_ID, sessionId, newMessage })) events.push(event);
  return events;
}

/** A session: `before` turns of logs, the job started, `after` turns of logs; its runner, model, logger and store. */
async function sessionWithJob(before: number, after: number, options: ContextGuardOptions = {}) {
  const model = new ScriptedLlm({ window: WINDOW, countTokens: ratioTokenCounter(1.2), script });
  const startJob = new LongRunningFunctionTool({
    name: 'start_job',
    description: 'Starts a deploy job; the result arrives later.',
    parameters: { type: 'OBJECT', properties: { target: { type: 'STRING' } } } as never,
    execute: () => ({ status: 'pending', ticket: 'JOB-77' }),
  });
  const agent = new LlmAgent({
    name: 'ops',
    model,
    instruction: 'You run deploys.',
    tools: [startJob, fetchLogsTool()],
  });
  const logger = new CapturingLogger();
  const guard = summarizingGuard({ logger, ...options });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] });
  const { id } = await sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
  const events: Event[] = [];
  for (let turn = 1; turn <= before; turn++)
    events.push(...(await runTurn(runner, id, userMessage(`Check logs ${turn}.`))));
  events.push(...(await runTurn(runner, id, userMessage('Start the deploy job.'))));
  const call = events
    .flatMap((event) => event.content?.parts ?? [])
    .find((part) => part.functionCall?.name === 'start_job');
  for (let turn = 1; turn <= after; turn++)
    events.push(...(await runTurn(runner, id, userMessage(`Check logs ${turn + before}.`))));
  const state = async () =>
    (await sessionService.getSession({ appName: APP_NAME, userId: USER_ID, sessionId: id }))?.state ?? {};
  const late: Content = {
    role: 'user',
    parts: [
      {
        functionResponse: {
          id: call?.functionCall?.id,
          name: 'start_job',
          response: { status: 'done', result: 'DEPLOYED-OK-5521' },
        },
      },
    ],
  };
  return { model, logger, guard, runner, id, events, state, late };
}

describe("a long-running tool's answer sent after compactions", () => {
  it.each([
    ['started on the first turn', 0, 13, {}],
    [
      'started after twelve turns, its view alone over the threshold, with summaries prepared',
      12,
      13,
      { prepareTurnsAhead: 1 },
    ],
    ['started after twelve turns, with masking', 12, 30, { maskKeepRecent: 2 }],
  ])(
    'should keep the stored records through the late answer, %s, and apply the summary',
    async (_, before, after, options) => {
      const run = await sessionWithJob(before, after, options);
      const stored = await run.state();
      const summary = decodeSummaryRecord(stored[keys.summary]);
      expect(summary?.compactions).toBeGreaterThanOrEqual(1);
      if ('maskKeepRecent' in options) expect(stored[keys.mask]).toBeDefined();
      const compactions = run.logger.matching('compacted contents').length;

      const from = run.model.requests.length;
      const logFrom = run.logger.lines.length;
      run.events.push(...(await runTurn(run.runner, run.id, run.late)));
      const lateRequest = run.model.requests[from]?.contents ?? [];
      // ADK's view of the late answer: the history up to the call, shorter than what the summary covers.
      expect(lateRequest.length).toBeLessThan(summary?.covered ?? 0);
      // The stored summary, applied up to the call: the call and its answer follow it; no new summary made there.
      expect(textOf(lateRequest[0])).toContain(summary?.text.slice(0, 200));
      expect(lateRequest.at(-2)?.parts?.some((part) => part.functionCall?.name === 'start_job')).toBe(true);
      expect(run.logger.matching('compacted contents')).toHaveLength(compactions);
      const kept = await run.state();
      expect(kept[keys.summary]).toEqual(stored[keys.summary]);
      expect(kept[keys.mask]).toEqual(stored[keys.mask]);
      expect(run.logger.matching('stored summary kept as stored, applied up to the function call')).toHaveLength(1);
      expect(run.logger.matching('stored summary not applied')).toEqual([]);
      const lateLines = run.logger.lines.slice(logFrom).map((line) => line.message);
      expect(lateLines.filter((line) => line.includes('prepared summary dropped'))).toEqual([]);

      const next = run.model.requests.length;
      run.events.push(...(await runTurn(run.runner, run.id, userMessage('What was the job result?'))));
      const request = run.model.requests[next]?.contents ?? [];
      expect(textOf(request[0])).toContain(SUMMARY_MARKER);
      expect(contentsText(request)).toContain('Job finished: DEPLOYED-OK-5521.');
      expect(run.events.filter((event) => event.errorCode)).toEqual([]);
    },
  );
});
