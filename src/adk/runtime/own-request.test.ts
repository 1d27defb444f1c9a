import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Content } from '@google/genai';
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

/** The session's events of two turns at once: turn 2's message, then turn 3's, appended after it. */
const userEvent = (invocationId: string, content: Content) => ({ author: 'user', invocationId, content });
const twoTurns = {
  events: [
    userEvent('i1', userText('Turn 1')),
    userEvent('i2', userText('Turn 2')),
    userEvent('i3', userText('Turn 3')),
  ],
  invocationId: 'i2',
};

describe('concurrentOwnRequestAt', () => {
  it('should find the own message when another turn appended its message after it', () => {
    expect(concurrentOwnRequestAt(history, userText('Turn 2'), twoTurns)).toBe(2);
  });

  it("should find the own message when it is the latest but the other turn's events follow it", () => {
    const events = [...twoTurns.events, { author: 'worker', invocationId: 'i2', content: functionCall('fetch') }];
    expect(concurrentOwnRequestAt(history, userText('Turn 3'), { events, invocationId: 'i3' })).toBe(3);
  });

  it('should say nothing when no other turn wrote after the own message, or it is not a user message or not there', () => {
    expect(concurrentOwnRequestAt(history, userText('Turn 3'), { ...twoTurns, invocationId: 'i3' })).toBeUndefined();
    expect(concurrentOwnRequestAt(history, functionResponse('fetch', { ok: true }), twoTurns)).toBeUndefined();
    expect(concurrentOwnRequestAt(history, userText('Turn 9'), twoTurns)).toBeUndefined();
    expect(concurrentOwnRequestAt(history, undefined, twoTurns)).toBeUndefined();
    expect(concurrentOwnRequestAt([], userText('Turn 2'), twoTurns)).toBeUndefined();
  });

  it('should say nothing for a later user content no other turn appended (load_artifacts, a Workflow node input)', () => {
    // Review 15: ADK's load_artifacts adds "Artifact report.txt is:" to the request; a Workflow node gets the node
    // before it's output as a user content. Neither is an event of another invocation.
    const loaded = [
      ...history.slice(0, 3),
      functionCall('fetch'),
      functionResponse('fetch', {}),
      userText('Artifact x'),
    ];
    const oneTurn = {
      events: [userEvent('i1', userText('Turn 1')), userEvent('i2', userText('Turn 2'))],
      invocationId: 'i2',
    };
    expect(concurrentOwnRequestAt(loaded, userText('Turn 2'), oneTurn)).toBeUndefined();
    // Any event of another invocation after the own message is another turn running, a late answer's included.
    const late = { ...oneTurn, events: [...oneTurn.events, userEvent('i0', functionResponse('job', { done: true }))] };
    expect(concurrentOwnRequestAt(loaded, userText('Turn 2'), late)).toBe(2);
  });

  it('should take the nearest earlier copy of a message sent twice', () => {
    const twice = [userText('yes'), modelText('ok'), userText('yes'), userText('no')];
    const events = [
      userEvent('i1', userText('yes')),
      userEvent('i2', userText('yes')),
      userEvent('i3', userText('no')),
    ];
    expect(concurrentOwnRequestAt(twice, userText('yes'), { events, invocationId: 'i2' })).toBe(2);
  });

  it('should give on a growing event list, read call by call, what a whole read of the same events gives', () => {
    // Each call reads only the events new since the turn's last call; a fresh list is read whole, back to the message.
    const event = fc.record({
      author: fc.constantFrom('user', 'worker'),
      invocationId: fc.constantFrom('i1', 'i2', 'i3'),
      content: fc.option(fc.constant(modelText('step')), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(fc.array(event, { maxLength: 4 }), { maxLength: 8 }), (batches) => {
        const own = userText('Mine');
        const events: { author: string; invocationId: string; content?: Content | undefined }[] = [
          userEvent('i2', own),
        ];
        const contents = [userText('Earlier'), own];
        for (const batch of batches) {
          events.push(...batch);
          const growing = concurrentOwnRequestAt(contents, own, { events, invocationId: 'i2' });
          expect(growing).toBe(concurrentOwnRequestAt(contents, own, { events: [...events], invocationId: 'i2' }));
        }
      }),
    );
  });
});
