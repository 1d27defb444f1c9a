import { describe, expect, it } from 'vitest';
import { functionCall, functionResponse, modelText, userText } from '../../../test/support/builders.js';
import { concurrentOwnRequestAt } from './own-request.js';

const history = [
  userText('Turn 1'),
  modelText('Done 1'),
  userText('Turn 2'),
  userText('Turn 3'),
  functionCall('fetch'),
  functionResponse('fetch', { ok: true }),
];

describe('concurrentOwnRequestAt', () => {
  it('should find the own message when a later user message follows it (another turn at once)', () => {
    expect(concurrentOwnRequestAt(history, userText('Turn 2'))).toBe(2);
  });

  it('should say nothing when the own message is the latest, is not a user message, or is not there', () => {
    expect(concurrentOwnRequestAt(history, userText('Turn 3'))).toBeUndefined();
    expect(concurrentOwnRequestAt(history, functionResponse('fetch', { ok: true }))).toBeUndefined();
    expect(concurrentOwnRequestAt(history, userText('Turn 9'))).toBeUndefined();
    expect(concurrentOwnRequestAt(history, undefined)).toBeUndefined();
    expect(concurrentOwnRequestAt([], userText('Turn 2'))).toBeUndefined();
  });

  it('should take the nearest earlier copy of a message sent twice', () => {
    const twice = [userText('yes'), modelText('ok'), userText('yes'), userText('no')];
    expect(concurrentOwnRequestAt(twice, userText('yes'))).toBe(2);
  });
});
