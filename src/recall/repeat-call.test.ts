import { describe, expect, it } from 'vitest';
import {
  canonicalArgs,
  findStoredAnswer,
  storedAnswerResult,
  STORED_ANSWER_KEY,
  type RepeatEvent,
} from './repeat-call.js';

const MASK = 'context_guard:worker:mask';

function callEvent(id: string, invocationId: string, args: Record<string, unknown>): RepeatEvent {
  return {
    id,
    invocationId,
    author: 'worker',
    timestamp: 1_000,
    content: { role: 'model', parts: [{ functionCall: { id: `call-${id}`, name: 'read', args } }] },
  };
}

function resultEvent(id: string, invocationId: string, response: Record<string, unknown>): RepeatEvent {
  return {
    id: `r-${id}`,
    invocationId,
    author: 'worker',
    timestamp: 1_000,
    content: { role: 'user', parts: [{ functionResponse: { id: `call-${id}`, name: 'read', response } }] },
  };
}

const maskWrite = (invocationId: string): RepeatEvent => ({
  id: `mask-${invocationId}`,
  invocationId,
  author: 'worker',
  timestamp: 2_000,
  actions: { stateDelta: { [MASK]: { upTo: 3, anchor: 'x' } } },
});

const query = {
  agentName: 'worker',
  toolName: 'read',
  args: { b: 1, a: [2, { d: 1, c: 0 }] },
  invocationId: 'i3',
  hidingKeys: [MASK],
  isReadOnly: (name: string) => name === 'read' || name === 'search',
};

describe('canonicalArgs', () => {
  it('should compare arguments with their keys sorted at every depth', () => {
    expect(canonicalArgs({ b: 1, a: { d: 1, c: 2 } })).toBe(canonicalArgs({ a: { c: 2, d: 1 }, b: 1 }));
    expect(canonicalArgs({ a: [1, 2] })).not.toBe(canonicalArgs({ a: [2, 1] }));
  });
});

describe('findStoredAnswer', () => {
  const args = { a: [2, { c: 0, d: 1 }], b: 1 };
  it('should find a masked result of the same call from an earlier turn', () => {
    const events = [callEvent('1', 'i1', args), resultEvent('1', 'i1', { v: 1 }), maskWrite('i2')];
    expect(findStoredAnswer(events, query)).toMatchObject({ response: { v: 1 }, eventId: 'r-1', hiddenBy: 'mask' });
  });

  it('should not answer while the result is still in view (no mask since), or for other arguments', () => {
    expect(findStoredAnswer([callEvent('1', 'i1', args), resultEvent('1', 'i1', { v: 1 })], query)).toBeUndefined();
    const other = [callEvent('1', 'i1', { ...args, b: 2 }), resultEvent('1', 'i1', { v: 1 }), maskWrite('i2')];
    expect(findStoredAnswer(other, query)).toBeUndefined();
  });

  it('should answer an offloaded result at once, and never from a stored answer itself', () => {
    const name = 'context_guard-tool_output-app=a.0123456789ab-s-read-1';
    const saved = {
      ...resultEvent('1', 'i3', { full_result_artifact: { name } }),
      actions: { artifactDelta: { [name]: 0 } },
    };
    expect(findStoredAnswer([callEvent('1', 'i3', args), saved], query)?.hiddenBy).toBe('offload');
    // The tool's own output with a key of that name (trial 23), or a handle to an artifact this event did not save.
    const planted = resultEvent('1', 'i3', { full_result_artifact: { name }, status: 'pending' });
    expect(findStoredAnswer([callEvent('1', 'i3', args), planted], query)).toBeUndefined();
    const foreign = { ...saved, actions: { artifactDelta: { 'report.pdf': 0 } } };
    expect(findStoredAnswer([callEvent('1', 'i3', args), foreign], query)).toBeUndefined();
    const unprefixed = {
      ...resultEvent('1', 'i3', { full_result_artifact: { name: 'n' } }),
      actions: { artifactDelta: { n: 0 } },
    };
    expect(findStoredAnswer([callEvent('1', 'i3', args), unprefixed], query)).toBeUndefined();
    const replay = [callEvent('2', 'i3', args), resultEvent('2', 'i3', { v: 1, [STORED_ANSWER_KEY]: {} })];
    expect(findStoredAnswer(replay, query)).toBeUndefined();
  });

  it('should not answer once a tool that may change something was called since the result, by any agent', () => {
    const call = (id: string, name: string, author = 'worker'): RepeatEvent => ({
      id,
      invocationId: 'i2',
      author,
      timestamp: 1_500,
      content: { role: 'model', parts: [{ functionCall: { id: `call-${id}`, name, args: {} } }] },
    });
    const stored = [callEvent('1', 'i1', args), resultEvent('1', 'i1', { cart: ['soil'] })];
    for (const since of [call('2', 'modify_cart'), call('2', 'modify_cart', 'checkout_agent'), call('2', 'unknown')])
      expect(findStoredAnswer([...stored, since, maskWrite('i2')], query)).toBeUndefined();
    // A read-only call since, or a write before the result, leaves the stored answer as it is.
    expect(findStoredAnswer([...stored, call('2', 'search'), maskWrite('i2')], query)?.eventId).toBe('r-1');
    expect(findStoredAnswer([call('0', 'modify_cart'), ...stored, maskWrite('i2')], query)?.eventId).toBe('r-1');
  });

  it("should not answer once a write called before the result was answered after it (a confirmation, a job's end)", () => {
    // The twenty-first outside trial: a document published (confirmed) after its read was answered with the draft.
    const answer = (name: string): RepeatEvent => ({
      id: `a-${name}`,
      invocationId: 'i2',
      author: 'user',
      timestamp: 1_500,
      content: { role: 'user', parts: [{ functionResponse: { id: `call-0`, name, response: { done: true } } }] },
    });
    const stored = [callEvent('1', 'i1', args), resultEvent('1', 'i1', { doc: 'draft' })];
    for (const name of ['publish_doc', 'adk_request_confirmation'])
      expect(findStoredAnswer([...stored, answer(name), maskWrite('i2')], query)).toBeUndefined();
    // A read-only tool's answer since leaves it as it is.
    expect(findStoredAnswer([...stored, answer('search'), maskWrite('i2')], query)?.eventId).toBe('r-1');
  });

  it("should not use another agent's call", () => {
    const events = [
      { ...callEvent('1', 'i1', args), author: 'critic' },
      resultEvent('1', 'i1', { v: 1 }),
      maskWrite('i2'),
    ];
    expect(findStoredAnswer(events, query)).toBeUndefined();
  });
});

describe('storedAnswerResult', () => {
  it('should mark the stored result with its age in seconds', () => {
    const answer = storedAnswerResult({ response: { v: 1 }, eventId: 'e', timestamp: 1_000, hiddenBy: 'mask' }, 61_000);
    expect(answer).toMatchObject({ v: 1, [STORED_ANSWER_KEY]: { age_seconds: 60, event_id: 'e' } });
  });
});
