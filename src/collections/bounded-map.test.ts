import { describe, expect, it } from 'vitest';
import { BoundedMap, dropOldest } from './bounded-map.js';

describe('BoundedMap', () => {
  it('drops the least recently set keys past its cap, and tells of each', () => {
    const dropped: string[] = [];
    const map = new BoundedMap<string, number>(2, (key, value) => dropped.push(`${key}=${value}`));
    map.set('a', 1);
    map.set('b', 2);
    map.set('a', 3); // a is now the most recent
    map.set('c', 4);
    expect([...map.keys()]).toEqual(['a', 'c']);
    expect(dropped).toEqual(['b=2']);
    expect(map.get('a')).toBe(3);
  });

  it('hands a value over once with take, without telling of a drop', () => {
    const dropped: string[] = [];
    const map = new BoundedMap<string, number>(4, (key) => dropped.push(key));
    map.set('x', 1);
    expect(map.take('x')).toBe(1);
    expect(map.take('x')).toBeUndefined();
    expect(map.size).toBe(0);
    expect(dropped).toEqual([]);
  });
});

describe('dropOldest', () => {
  it('deletes first-inserted keys until the cap holds', () => {
    const map = new Map([
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]);
    dropOldest(map, 1);
    expect([...map.keys()]).toEqual(['c']);
  });
});
