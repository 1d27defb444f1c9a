import { createEvent, type Event } from '@google/adk';
import type { Part } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { isLateResponseView } from './late-response-view.js';

const OPS = { agentName: 'ops' };
const event = (author: string, parts: Part[], branch?: string): Event =>
  createEvent({ author, branch, content: { role: author === 'user' ? 'user' : 'model', parts } });
const call = (id: string): Part => ({ functionCall: { id, name: 'start_job', args: {} } });
const response = (id: string): Part => ({ functionResponse: { id, name: 'start_job', response: { status: 'done' } } });
const text = (value: string): Part => ({ text: value });

describe('isLateResponseView', () => {
  it('should see a function response whose call is not in the event before it', () => {
    const events = [
      event('user', [text('Start.')]),
      event('ops', [call('a')]),
      event('user', [text('Later.')]),
      event('ops', [text('Ok.')]),
      event('user', [response('a')]),
    ];
    expect(isLateResponseView(events, OPS)).toBe(true);
  });

  it("should not see a tool loop's step: the response right after its call", () => {
    const events = [event('user', [text('Go.')]), event('ops', [call('a')]), event('ops', [response('a')])];
    expect(isLateResponseView(events, OPS)).toBe(false);
  });

  it('should not see a request whose latest event is no function response, nor an empty history', () => {
    expect(isLateResponseView([event('user', [text('Hello.')])], OPS)).toBe(false);
    expect(isLateResponseView([], OPS)).toBe(false);
    expect(isLateResponseView(undefined, OPS)).toBe(false);
  });

  it('should not see responses without ids (ADK cannot place them either)', () => {
    const noId: Part = { functionResponse: { name: 'start_job', response: {} } };
    expect(
      isLateResponseView([event('ops', [call('a')]), event('user', [text('x')]), event('user', [noId])], OPS),
    ).toBe(false);
  });

  it("should read the agent's own branch: another branch's event between a call and its response is not in its view", () => {
    // A ParallelAgent: branch b's event landed between branch a's call and its response (review 14).
    const events = [
      event('user', [text('Go.')]),
      event('a', [call('x')], 'root.a'),
      event('b', [text('Branch b answers.')], 'root.b'),
      event('a', [response('x')], 'root.a'),
    ];
    expect(isLateResponseView(events, { agentName: 'a', branch: 'root.a' })).toBe(false);
    expect(isLateResponseView(events, { agentName: 'a' })).toBe(true);
  });

  it("should not count another agent's calls and responses, which ADK renders as text", () => {
    const events = [event('user', [text('Go.')]), event('helper', [call('x')]), event('helper', [response('x')])];
    expect(isLateResponseView(events, OPS)).toBe(false);
  });
});
