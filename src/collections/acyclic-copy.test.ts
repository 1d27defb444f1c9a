import { describe, expect, it } from 'vitest';
import { acyclicCopy, hasCycle } from './acyclic-copy.js';

/** The shape ADK 2.0.0's A2A client makes: the event's metadata holds the response that holds it. */
function a2aMetadata(): Record<string, unknown> {
  const customMetadata: Record<string, unknown> = { team: 'analysts', list: [1, 'two'] };
  customMetadata['a2a:response'] = { kind: 'artifact-update', metadata: { adk_custom_metadata: customMetadata } };
  return customMetadata;
}

describe('acyclicCopy', () => {
  it('should find the cycle of an A2A answer and none in a tree or a shared part', () => {
    expect(hasCycle(a2aMetadata())).toBe(true);
    const shared = { a: 1 };
    expect(hasCycle({ x: shared, y: [shared, shared], z: null, s: 'text' })).toBe(false);
    expect(hasCycle('text')).toBe(false);
    const list: unknown[] = [1];
    list.push({ back: list });
    expect(hasCycle(list)).toBe(true);
  });

  it('should leave out only the reference that closes a cycle, and leave the original as it was', () => {
    const original = a2aMetadata();
    const copy = acyclicCopy(original);
    expect(() => JSON.stringify(copy)).not.toThrow();
    expect(copy).toEqual({
      team: 'analysts',
      list: [1, 'two'],
      'a2a:response': { kind: 'artifact-update', metadata: {} },
    });
    expect((original['a2a:response'] as { metadata: Record<string, unknown> }).metadata['adk_custom_metadata']).toBe(
      original,
    );
  });

  it('should keep a shared part that closes no cycle, and a list item that does becomes null', () => {
    const shared = { a: 1 };
    expect(acyclicCopy({ x: shared, y: shared })).toEqual({ x: { a: 1 }, y: { a: 1 } });
    const list: unknown[] = [1];
    list.push(list, 3);
    expect(acyclicCopy(list)).toEqual([1, null, 3]);
  });
});
