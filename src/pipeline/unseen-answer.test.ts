import { describe, expect, it } from 'vitest';
import { functionCall, functionResponse, modelText, userText } from '../../test/support/builders.js';
import { answerKey } from '../content/answer-key.js';
import { answersRead, unseenAnswerCall } from './unseen-answer.js';

const final = { status: 'done', result: 'JOBDONE' };
const key = answerKey('start_job', final) ?? '';
const answers = [{ name: 'start_job', key }];
const history = [
  userText('Start.'),
  functionCall('start_job'),
  functionResponse('start_job', final),
  modelText('Noted.'),
  userText('Next.'),
];

describe('unseenAnswerCall', () => {
  it('should give the call of an answer inside the covered range that the summary did not read', () => {
    expect(unseenAnswerCall(history, 4, answers, [])).toBe(1);
    expect(unseenAnswerCall(history, 4, answers, [key])).toBeUndefined();
    // The same tool's other response (the pending one a summary read) is not the answer.
    const pending = [...history.slice(0, 2), functionResponse('start_job', { status: 'pending' }), ...history.slice(3)];
    expect(unseenAnswerCall(pending, 4, answers, [])).toBeUndefined();
    // After the watermark: sent whole.
    expect(unseenAnswerCall(history, 2, answers, [])).toBeUndefined();
  });
});

describe('equal answers (review 16: two approvals)', () => {
  const twice = [
    ...history,
    functionCall('start_job', { target: 'staging' }),
    functionResponse('start_job', final),
    modelText('Noted again.'),
    userText('And?'),
  ];
  const both = [...answers, ...answers];

  it('should count each copy: one read leaves one unread, which may be either', () => {
    // Which copy the summary read cannot be told (the later call may have been answered first): cut at the first
    // copy's call, so neither is stripped unread (review 46: the second's answer was read, the first's stripped).
    expect(unseenAnswerCall(twice, 8, both, [key])).toBe(1);
    expect(unseenAnswerCall(twice, 8, both, [key, key])).toBeUndefined();
    // Only the first copy inside the covered range, and it was read: the unread one lies after it, sent whole.
    expect(unseenAnswerCall(twice, 4, both, [key])).toBeUndefined();
    expect(answersRead(twice, 8, both, [key])).toEqual([key, key]);
    expect(answersRead(twice, 4, both, [])).toEqual([key]);
  });
});

describe('answersRead', () => {
  it('should add the answers that lie in what a summary covers, and only those', () => {
    expect(answersRead(history, 4, answers, [])).toEqual([key]);
    expect(answersRead(history, 2, answers, [])).toEqual([]);
    expect(answersRead(history, 4, answers, ['older'])).toEqual(['older', key]);
  });
});
