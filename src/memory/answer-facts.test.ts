import { describe, expect, it } from 'vitest';
import { functionCall, functionResponse, userText } from '../../test/support/builders.js';
import { answerKey } from '../content/answer-key.js';
import { answerFacts } from './answer-facts.js';

const ANSWER = { status: 'done', job_id: 'JOB-7731', result: 'DEPLOYED-OK-5521' };

describe('answerFacts', () => {
  it("should keep each of the application's answers among the contents verbatim, marked, and no tool's result", () => {
    const contents = [
      userText('Deploy to prod-eu-3.'),
      functionCall('start_job', { target: 'prod-eu-3' }),
      functionResponse('start_job', { status: 'pending', job_id: 'JOB-7731' }),
      functionResponse('start_job', ANSWER),
      functionResponse('read_logs', { lines: 'ok' }),
    ];
    const facts = answerFacts(contents, [answerKey('start_job', ANSWER)!]);
    expect(facts).toEqual([{ text: `The application answered start_job: ${JSON.stringify(ANSWER)}`, asked: true }]);
  });

  it('should keep the scalar fields that fit, each whole, of an answer too long for one fact', () => {
    const answer = { log: 'step ok; '.repeat(40), status: 'done', result: 'DEPLOYED-OK-5521', attempts: 2 };
    const [fact] = answerFacts([functionResponse('start_job', answer)], [answerKey('start_job', answer)!]);
    expect(fact?.text).toBe(
      'The application answered start_job: {"status":"done","result":"DEPLOYED-OK-5521","attempts":2} (fields shortened)',
    );
  });

  it('should leave an answer too large to be a fact, and find none without keys', () => {
    const large = { report: 'x'.repeat(5_000) };
    const contents = [functionResponse('export', large)];
    expect(answerFacts(contents, [answerKey('export', large)!])).toEqual([]);
    expect(answerFacts([functionResponse('start_job', ANSWER)], [])).toEqual([]);
  });
});
