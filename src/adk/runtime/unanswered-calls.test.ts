import { describe, expect, it } from 'vitest';
import { unansweredCalls } from './unanswered-calls.js';

const callEvent = (id: string, name: string, args: unknown, longRunning = true) => ({
  id: `e-${id}`,
  author: 'ops',
  longRunningToolIds: longRunning ? [id] : [],
  content: { parts: [{ functionCall: { id, name, args } }] },
});
const responseEvent = (id: string, author: string, response: unknown) => ({
  id: `r-${id}-${author}`,
  author,
  content: { parts: [{ functionResponse: { id, name: 'start_job', response } }] },
});

describe('unansweredCalls', () => {
  it("should keep a long-running call with the tool's own response until the user's answer comes", () => {
    const events = [
      callEvent('c1', 'start_job', { target: 'prod' }),
      responseEvent('c1', 'ops', { status: 'pending' }),
    ];
    expect(unansweredCalls(events, 'k1', 'ops')).toEqual([
      { id: 'c1', name: 'start_job', args: { target: 'prod' }, sofar: { status: 'pending' } },
    ]);
    expect(unansweredCalls([...events, responseEvent('c1', 'user', { status: 'done' })], 'k1', 'ops')).toEqual([]);
  });

  it('should not keep a call that is not long-running', () => {
    expect(unansweredCalls([callEvent('c2', 'fetch', {}, false)], 'k2', 'ops')).toEqual([]);
  });

  it("should keep a confirmation as the model's call it confirms, and ADK's other requests not at all", () => {
    const original = { id: 'c3', name: 'delete', args: { path: '/a' } };
    const events = [
      callEvent('q1', 'adk_request_confirmation', { originalFunctionCall: original, toolConfirmation: {} }),
      callEvent('q2', 'adk_request_credential', { functionCallId: 'c4' }),
    ];
    expect(unansweredCalls(events, 'k3', 'ops')).toEqual([
      { id: 'q1', name: 'delete', args: { path: '/a' }, confirmation: true },
    ]);
  });

  it('should read afresh a list whose head is not what it read before', () => {
    unansweredCalls([callEvent('c5', 'start_job', {})], 'k4', 'ops');
    expect(unansweredCalls([callEvent('c6', 'start_job', {})], 'k4', 'ops').map((call) => call.id)).toEqual(['c6']);
  });

  it("should not take another agent's long-running call as this agent's", () => {
    expect(unansweredCalls([callEvent('c7', 'start_job', {})], 'k5', 'lead')).toEqual([]);
  });
});
