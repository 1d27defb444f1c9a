import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import {
  awaitedIn,
  decodeAwaited,
  pendingCallOf,
  renderAwaited,
  withResponseSoFar,
  type PendingCall,
} from './awaited-calls.js';

const call = (name: string, args: unknown): Content => ({
  role: 'model',
  parts: [{ functionCall: { name, args } as never }],
});
const pending = (id: string, name: string, args: unknown, confirmation?: boolean, after = 0): PendingCall => {
  const made = pendingCallOf(id, name, args, after, confirmation);
  if (!made) throw new Error('arguments not JSON');
  return made;
};
const job = withResponseSoFar(pending('c1', 'start_job', { target: 'prod' }), { status: 'pending' });

describe('awaitedIn', () => {
  it('should list a pending call the covered contents hold, with its response so far', () => {
    const contents = [call('fetch', {}), call('start_job', { target: 'prod' }), call('fetch', { n: 2 })];
    expect(awaitedIn(contents, 2, [job])).toEqual([
      { id: 'c1', text: 'start_job {"target":"prod"}: its response so far: {"status":"pending"}' },
    ]);
  });

  it('should not list a pending call made after the covered contents, or one with other arguments', () => {
    const contents = [call('start_job', { target: 'test' }), call('start_job', { target: 'prod' })];
    expect(awaitedIn(contents, 1, [job])).toBeUndefined();
    expect(awaitedIn(contents, 2, [])).toBeUndefined();
  });

  it('should give each of two equal calls its own pending id, and say a confirmation is awaited', () => {
    // The first has one equal call after it, the second none: each is found at its own place.
    const first = withResponseSoFar(pending('c1', 'start_job', { target: 'prod' }, false, 1), { status: 'pending' });
    const twice = pending('c2', 'start_job', { target: 'prod' });
    const confirm = pending('c3', 'delete', { path: '/a' }, true);
    const contents = [
      call('start_job', { target: 'prod' }),
      call('delete', { path: '/a' }),
      call('start_job', { target: 'prod' }),
    ];
    expect(awaitedIn(contents, 3, [first, twice, confirm])).toEqual([
      { id: 'c1', text: expect.stringContaining('its response so far') },
      { id: 'c3', text: 'delete {"path":"/a"}: awaiting the user\'s confirmation' },
      { id: 'c2', text: 'start_job {"target":"prod"}: no answer yet' },
    ]);
  });

  it('should write a line and an id the record reads back, whatever the tool name', () => {
    const named = pending('i'.repeat(300), 'n'.repeat(500), { target: 'prod' });
    const listed = awaitedIn([call('n'.repeat(500), { target: 'prod' })], 1, [named, { ...named, id: 'c9' }]);
    expect(listed?.map((entry) => entry.id)).toEqual(['c9']);
    expect(decodeAwaited(listed)).toEqual(listed);
  });

  it('should cut long arguments and responses in its line', () => {
    const long = withResponseSoFar(pending('c1', 'start_job', { body: 'x'.repeat(5_000) }), { log: 'y'.repeat(5_000) });
    const [listed] = awaitedIn([call('start_job', { body: 'x'.repeat(5_000) })], 1, [long]) ?? [];
    expect(listed?.text.length).toBeLessThan(400);
    expect(decodeAwaited([listed])).toEqual([listed]);
  });

  it('should keep neither the arguments nor the response so far of a pending call, only their cut text', () => {
    const args = { body: 'x'.repeat(5_000) };
    const kept = withResponseSoFar(pending('c1', 'start_job', args), { log: 'y'.repeat(5_000) });
    expect(JSON.stringify(kept).length).toBeLessThan(500);
    expect(awaitedIn([call('start_job', { body: 'x'.repeat(5_000) })], 1, [kept])).toHaveLength(1);
  });

  it('should not make a pending call of arguments that cannot be written as JSON', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(pendingCallOf('c1', 'start_job', cyclic)).toBeUndefined();
  });
});

describe('renderAwaited', () => {
  const listed = [
    { id: 'c1', text: 'start_job {}: no answer yet' },
    { id: 'c2', text: 'stop_job {}: no answer yet' },
  ];

  it('should show only the calls still pending', () => {
    const text = renderAwaited(listed, [{ id: 'c2' }]);
    expect(text).toContain('- stop_job {}');
    expect(text).not.toContain('start_job');
    expect(renderAwaited(listed, [])).toBe('');
    expect(renderAwaited(undefined, [{ id: 'c1' }])).toBe('');
  });
});

describe('decodeAwaited', () => {
  it('should read a stored list back, and anything else as absent', () => {
    expect(decodeAwaited([{ id: 'c1', text: 'a' }])).toEqual([{ id: 'c1', text: 'a' }]);
    expect(decodeAwaited([{ id: 'c1' }])).toBeUndefined();
    expect(decodeAwaited([{ id: '', text: 'a' }])).toBeUndefined();
    expect(decodeAwaited('c1')).toBeUndefined();
    expect(decodeAwaited([])).toBeUndefined();
  });
});
