/**
 * A map that holds at most a fixed number of keys: setting a key makes it the most recent, and the
 * least recently set keys are dropped past the cap. The guard's per-process memories (calls awaiting
 * their response, prepared summaries, measures, learned windows) are caches or hand-overs whose
 * truth is in session state, so dropping the oldest never loses data; it keeps a process serving
 * many sessions from growing without end.
 */

/** Deletes `map`'s first-inserted keys until it holds at most `cap`; `drop` deletes one (and may release it). */
export function dropOldest<K>(
  map: Map<K, unknown>,
  cap: number,
  drop: (key: K) => void = (key) => map.delete(key),
): void {
  for (const oldest of map.keys()) {
    if (map.size <= cap) break;
    drop(oldest);
  }
}

export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>();

  /** `onDrop` is told of each entry dropped past the cap (not of one deleted or taken). */
  constructor(
    readonly cap: number,
    private readonly onDrop?: (key: K, value: V) => void,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  /** Sets `key` as the most recent entry, then drops the least recent past the cap. */
  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    dropOldest(this.entries, this.cap, (oldest) => this.drop(oldest));
  }

  /** The value of `key`, removed. */
  take(key: K): V | undefined {
    const value = this.entries.get(key);
    this.entries.delete(key);
    return value;
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  keys(): IterableIterator<K> {
    return this.entries.keys();
  }

  private drop(key: K): void {
    const value = this.entries.get(key) as V;
    this.entries.delete(key);
    this.onDrop?.(key, value);
  }
}
