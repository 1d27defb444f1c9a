/**
 * The deploy job's model, for the late-answer tests: it starts a job (`start_job`) when asked, reads pages of logs
 * (`fetch_logs`, each page its own: a page repeated would repeat a summary's anchor elsewhere), and answers the job's
 * result only from what it finds in its request: it never repeats the result in its own words.
 */
import { FunctionTool, LlmAgent, LongRunningFunctionTool, type Event, type Runner } from '@google/adk';
import type { Content } from '@google/genai';
import type { Summarizer } from '../../src/index.js';
import { contentsText, ratioTokenCounter, ScriptedLlm, type ModelScript } from '../../src/testing/index.js';
import { fetchLogsTool, USER_ID } from './agent-harness.js';

export const RESULT = 'DEPLOYED-OK-5521';

export const textOf = (content: Content | undefined): string =>
  (content?.parts ?? []).map((part) => (typeof part.text === 'string' ? part.text : '')).join('');

/** Pages fetched in this process: every page is its own, across replicas and tests. */
let pages = 0;

/** The script, with log pages of `pageSize` characters. */
export function deployJobScript(pageSize: number): ModelScript {
  return ({ request }) => {
    const last = request.contents.at(-1);
    const response = last?.parts?.find((part) => part.functionResponse)?.functionResponse;
    if (response?.name === 'start_job') return { content: { role: 'model', parts: [{ text: 'Noted.' }] } };
    if (response) return { content: { role: 'model', parts: [{ text: 'Logs read.' }] } };
    const text = textOf(last);
    if (text.startsWith('Start'))
      return { content: { role: 'model', parts: [{ functionCall: { name: 'start_job', args: { target: 'prod' } } }] } };
    if (text.startsWith('Check')) {
      const call = { name: 'fetch_logs', args: { size: pageSize, seed: (pages += 1) } };
      return { content: { role: 'model', parts: [{ functionCall: call }] } };
    }
    const known = contentsText(request.contents).includes(RESULT);
    return { content: { role: 'model', parts: [{ text: known ? `The result was ${RESULT}.` : 'I do not know.' }] } };
  };
}

/** One turn of `USER_ID`'s session with `newMessage`, its events. */
export async function runContentTurn(runner: Runner, sessionId: string, newMessage: Content): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId: USER_ID, sessionId, newMessage })) events.push(event);
  return events;
}

/** How the job's answer comes: a long-running tool's final answer, or the user's confirmation of the call. */
export type Gate = 'long-running' | 'confirmation';

/**
 * The job's tool: long-running (`pending` as its response now, the final one later) or gated by the user's
 * confirmation.
 */
export function jobTool(gate: Gate, pending: Record<string, unknown> = { status: 'pending' }): FunctionTool {
  const parameters = { type: 'OBJECT', properties: { target: { type: 'STRING' } } } as never;
  const description = 'Starts a deploy job.';
  return gate === 'long-running'
    ? new LongRunningFunctionTool({ name: 'start_job', description, parameters, execute: () => pending })
    : new FunctionTool({
        name: 'start_job',
        description,
        parameters,
        requireConfirmation: true,
        execute: () => ({ status: 'done', result: RESULT }),
      });
}

/** A summarizer whose summaries keep nothing of what they cover. */
export const forgetful: Summarizer = {
  name: 'forgetful',
  summarize: () => Promise.resolve({ text: '## Current state\nLogs were checked.' }),
};

/** The deploy agent `ops` on an 8,000-token model of the deploy script, with the job's tool and a log reader. */
export function deployAgent(gate: Gate, pending?: Record<string, unknown>): { model: ScriptedLlm; agent: LlmAgent } {
  const model = new ScriptedLlm({ window: 8_000, countTokens: ratioTokenCounter(1.2), script: deployJobScript(3_000) });
  const tools = [jobTool(gate, pending), fetchLogsTool()];
  return { model, agent: new LlmAgent({ name: 'ops', model, instruction: 'You run deploys.', tools }) };
}

/** The user's late answer: the job's final result, or the confirmation of the call ADK asked about. */
export function lateAnswer(gate: Gate, events: readonly Event[]): Content {
  const parts = events.flatMap((event) => event.content?.parts ?? []);
  const name = gate === 'long-running' ? 'start_job' : 'adk_request_confirmation';
  const id = parts.find((part) => part.functionCall?.name === name)?.functionCall?.id;
  const response = gate === 'long-running' ? { status: 'done', result: RESULT } : { confirmed: true };
  return { role: 'user', parts: [{ functionResponse: { id, name, response } }] };
}
