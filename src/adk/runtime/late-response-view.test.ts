import { createEvent, type Event } from '@google/adk';
import type { Part } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { isLateResponseView } from './late-response-view.js';

const event = (author: string, ...parts: Part[]): Event =>
  createEvent({ author, content: { role: author === 'user' ? 'user' : 'model', parts } });
const call = (id: string): Part => ({ functionCall: { id, name: 'start_job', args: {} } });
const response = (id: string): Part => ({ functionResponse: { id, name: 'start_job', response: { status: 'done' } } });
const text = (value: string): Part => ({ text: value });

describe('isLateResponseView', () => {
  it('should see a function response whose call is not in the event before it', () => {
    const events = [
      event('user', text('Start.')),
      event('ops', call('a')),
      event('user', text('Later.')),
      event('ops', text('Ok.')),
      event('user', response('a')),
    ];
    expect(isLateResponseView(events)).toBe(true);
  });

  it("should not see a tool loop's step: the response right after its call", () => {
    expect(isLateResponseView([event('user', text('Go.')), event('ops', call('a')), event('ops', response('a'))])).toBe(
      false,
    );
  });

  it('should not see a request whose latest event is no function response, nor an empty history', () => {
    expect(isLateResponseView([event('user', text('Hello.'))])).toBe(false);
    expect(isLateResponseView([])).toBe(false);
    expect(isLateResponseView(undefined)).toBe(false);
  });

  it('should not see responses without ids (ADK cannot place them either)', () => {
    const noId: Part = { functionResponse: { name: 'start_job', response: {} } };
    expect(isLateResponseView([event('ops', call('a')), event('user', text('x')), event('user', noId)])).toBe(false);
  });
});
