import { describe, expect, it } from 'vitest';
import { applicationAnswers } from './application-answers.js';

const answer = (id: string, result: string) => ({
  id,
  author: 'user',
  content: { parts: [{ functionResponse: { name: 'start_job', response: { result } } }] },
});
const step = (id: string) => ({
  id,
  author: 'worker',
  content: { parts: [{ text: 'working', functionResponse: undefined }] },
});

describe('applicationAnswers', () => {
  it("should read a new list of a session's events from where the last one ended, and afresh when it differs", () => {
    const first = [step('e1'), answer('e2', 'done')];
    expect(applicationAnswers(first, 'session-a')).toHaveLength(1);
    // A new invocation's list: the same head, one more answer (equal to the first: counted twice).
    const next = [...first.map((event) => ({ ...event })), step('e3'), answer('e4', 'done')];
    expect(applicationAnswers(next, 'session-a')).toHaveLength(2);
    // Another history under the same key (events not the ones read): read whole.
    expect(applicationAnswers([step('x1'), step('x2'), step('x3')], 'session-a')).toEqual([]);
    // ADK's own request answers are left out.
    const confirmation = {
      id: 'c1',
      author: 'user',
      content: { parts: [{ functionResponse: { name: 'adk_request_confirmation', response: { confirmed: true } } }] },
    };
    expect(applicationAnswers([confirmation], 'session-b')).toEqual([]);
  });
});
