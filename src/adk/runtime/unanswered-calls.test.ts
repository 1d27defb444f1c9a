import { describe, expect, it } from 'vitest';
import { awaitedIn } from '../../summary/awaited-calls.js';
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
      expect.objectContaining({
        id: 'c1',
        name: 'start_job',
        after: 0,
        head: 'start_job {"target":"prod"}',
        sofar: '{"status":"pending"}',
      }),
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
      expect.objectContaining({ id: 'q1', name: 'delete', head: 'delete {"path":"/a"}', confirmation: true }),
    ]);
  });

  it('should read afresh a list whose head is not what it read before', () => {
    unansweredCalls([callEvent('c5', 'start_job', {})], 'k4', 'ops');
    expect(unansweredCalls([callEvent('c6', 'start_job', {})], 'k4', 'ops').map((call) => call.id)).toEqual(['c6']);
  });

  it("should not take another agent's long-running call as this agent's", () => {
    expect(unansweredCalls([callEvent('c7', 'start_job', {})], 'k5', 'lead')).toEqual([]);
  });

  it('should find a skipped confirmation by its place among equal calls, not give it to the later one answered', () => {
    // Review 28: the user typed instead of confirming, the model made the same call again, and that one was confirmed.
    const call = (id: string) => ({
      id: `e-${id}`,
      author: 'ops',
      content: { parts: [{ functionCall: { id, name: 'delete', args: { path: '/a' } } }] },
    });
    const ask = (id: string, original: string) =>
      callEvent(id, 'adk_request_confirmation', {
        originalFunctionCall: { id: original, name: 'delete', args: { path: '/a' } },
      });
    const events = [
      call('d1'),
      ask('q1', 'd1'),
      call('d2'),
      ask('q2', 'd2'),
      responseEvent('q2', 'user', { confirmed: true }),
    ];
    const pending = unansweredCalls(events, 'k6', 'ops');
    expect(pending.map((each) => [each.id, each.after])).toEqual([['q1', 1]]);
    const contents = [
      { role: 'model', parts: [{ functionCall: { name: 'delete', args: { path: '/a' } } }] },
      { role: 'user', parts: [{ text: 'yes, do it' }] },
      { role: 'model', parts: [{ functionCall: { name: 'delete', args: { path: '/a' } } }] },
    ];
    expect(awaitedIn(contents, 1, pending)?.map((each) => each.id)).toEqual(['q1']);
    expect(awaitedIn(contents, 3, pending)?.map((each) => each.id)).toEqual(['q1']);
    // Review 29: a request without the earlier events (`includeContents: 'none'`, an isolation scope) still finds it.
    const earlier = callEvent('c0', 'delete', { path: '/a' }, false);
    const later = unansweredCalls([earlier, responseEvent('c0', 'ops', {}), ...events], 'k7', 'ops');
    expect(awaitedIn(contents, 1, later)?.map((each) => each.id)).toEqual(['q1']);
  });

  it('should tell two equal long-running calls of one step apart', () => {
    const both = {
      id: 'e-both',
      author: 'ops',
      longRunningToolIds: ['a', 'b'],
      content: {
        parts: [
          { functionCall: { id: 'a', name: 'start_job', args: {} } },
          { functionCall: { id: 'b', name: 'start_job', args: {} } },
        ],
      },
    };
    expect(unansweredCalls([both], 'k8', 'ops').map((each) => [each.id, each.after])).toEqual([
      ['a', 1],
      ['b', 0],
    ]);
  });
});
