/**
 * The deploy job's model, for the late-answer tests: it starts a job (`start_job`) when asked, reads pages of logs
 * (`fetch_logs`, each page its own: a page repeated would repeat a summary's anchor elsewhere), and answers the job's
 * result only from what it finds in its request: it never repeats the result in its own words.
 */
import type { Event, Runner } from '@google/adk';
import type { Content } from '@google/genai';
import { contentsText, type ModelScript } from '../../src/testing/index.js';
import { USER_ID } from './agent-harness.js';

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
