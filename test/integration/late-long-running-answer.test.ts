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
import { APP_NAME, fetchLogsTool, summarizingGuard, USER_ID, userMessage } from '../support/agent-harness.js';

const WINDOW = 8_000;
const keys = stateKeysFor('ops');

const textOf = (content: Content | undefined): string =>
  (content?.parts ?? []).map((part) => (typeof part.text === 'string' ? part.text : '')).join('');

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
        parts: [{ functionCall: { name: 'fetch_logs', args: { size: 3_000, seed: request.contents.length } } }],
      },
    };
  return {
    content: { role: 'model', parts: [{ text: `Seen: ${contentsText(request.contents).length} characters.` }] },
  };
};

async function run(runner: Runner, sessionId: string, newMessage: Content): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId: USER_ID, sessionId, newMessage })) events.push(event);
  return events;
}

describe("a long-running tool's answer sent after compactions", () => {
  it('should keep the stored summary through the late answer and apply it on the next turn', async () => {
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
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [summarizingGuard({ logger })] });
    const { id } = await sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
    const stored = async () =>
      decodeSummaryRecord(
        (await sessionService.getSession({ appName: APP_NAME, userId: USER_ID, sessionId: id }))?.state[keys.summary],
      );
    const events = await run(runner, id, userMessage('Start the deploy job.'));
    const call = events.flatMap((event) => event.content?.parts ?? []).find((part) => part.functionCall)?.functionCall;
    expect(call?.id).toBeDefined();
    for (let turn = 2; turn <= 14; turn++) events.push(...(await run(runner, id, userMessage(`Check logs ${turn}.`))));
    const before = await stored();
    expect(before?.compactions).toBeGreaterThanOrEqual(2);

    const late = {
      role: 'user',
      parts: [
        {
          functionResponse: {
            id: call?.id,
            name: 'start_job',
            response: { status: 'done', result: 'DEPLOYED-OK-5521' },
          },
        },
      ],
    };
    const from = model.requests.length;
    events.push(...(await run(runner, id, late)));
    // ADK's view of the late answer: the history up to the call, shorter than what the summary covers.
    expect(model.requests[from]?.contents.length).toBeLessThan(before?.covered ?? 0);
    expect(await stored()).toEqual(before);
    expect(logger.matching('stored summary kept but not applied')).toHaveLength(1);
    expect(logger.matching('stored summary not applied')).toEqual([]);

    const next = model.requests.length;
    events.push(...(await run(runner, id, userMessage('What was the job result?'))));
    const request = model.requests[next]?.contents ?? [];
    expect(textOf(request[0])).toContain(SUMMARY_MARKER);
    expect(textOf(request[0])).toContain(before?.text.slice(0, 200));
    expect(contentsText(request)).toContain('Job finished: DEPLOYED-OK-5521.');
    expect((await stored())?.compactions ?? 0).toBeGreaterThanOrEqual(before?.compactions ?? 0);
    expect(events.filter((event) => event.errorCode)).toEqual([]);
  });
});
