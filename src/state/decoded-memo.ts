/**
 * A record decoded once per stored object. Within an invocation ADK's `State.get` hands back the very
 * object last set, so a call read the guard's usage record three times (the stored state, the pin cap,
 * the after-model update), each a full tolerant decode. The memo keys the decode by that object, weakly,
 * and trusts it only while the object still holds what it held when decoded (keys in order and values,
 * compared with a copy taken then, nested records and lists included): one edited in place is decoded
 * again. A decode depends only on the value, so nothing of one session can reach another's.
 */
import { isPlainObject } from '../config/plain-object.js';

/** Nested records and lists deeper than this are not memoised: the object is decoded every time. */
const MAX_DEPTH = 3;

/** A copy of a record's keys and values as decoded (nested records and lists copied the same way). */
interface Snapshot {
  readonly keys: readonly string[];
  readonly values: readonly unknown[];
}

type Copied = Snapshot | readonly unknown[] | string | number | boolean | null | undefined;

/** What `copyOf` returns for a value it does not copy (a function, a class instance, nesting too deep). */
const UNCOPIED = Symbol('uncopied');

/** A copy of `value` as decoded, or `UNCOPIED` (no wrapper object per value: a record is copied on every decode). */
function copyOf(value: unknown, depth: number): Copied | typeof UNCOPIED {
  if (value === null || value === undefined) return value;
  const kind = typeof value;
  if (kind === 'string' || kind === 'number' || kind === 'boolean') return value as string | number | boolean;
  if (depth >= MAX_DEPTH || kind !== 'object') return UNCOPIED;
  if (Array.isArray(value)) {
    const items: Copied[] = [];
    for (const item of value) {
      const copied = copyOf(item, depth + 1);
      if (copied === UNCOPIED) return UNCOPIED;
      items.push(copied);
    }
    return items;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return UNCOPIED;
  return snapshotOf(value as Record<string, unknown>, depth) ?? UNCOPIED;
}

function snapshotOf(record: Record<string, unknown>, depth: number): Snapshot | undefined {
  const keys = Object.keys(record);
  const values: Copied[] = [];
  for (const key of keys) {
    const copied = copyOf(record[key], depth + 1);
    if (copied === UNCOPIED) return undefined;
    values.push(copied);
  }
  return { keys, values };
}

/** Whether `value` still holds what `copy` was taken from. */
function holds(value: unknown, copy: Copied): boolean {
  if (copy === null || copy === undefined || typeof copy !== 'object') return value === copy;
  if (Array.isArray(copy)) {
    if (!Array.isArray(value) || value.length !== copy.length) return false;
    for (let i = 0; i < copy.length; i++) if (!holds(value[i], copy[i] as Copied)) return false;
    return true;
  }
  return isPlainObject(value) && !Array.isArray(value) && sameRecord(value, copy as Snapshot);
}

function sameRecord(record: Record<string, unknown>, snapshot: Snapshot): boolean {
  const keys = Object.keys(record);
  if (keys.length !== snapshot.keys.length) return false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (key !== snapshot.keys[i] || !holds(record[key], snapshot.values[i] as Copied)) return false;
  }
  return true;
}

export class DecodedMemo<T> {
  private readonly entries = new WeakMap<object, { readonly snapshot: Snapshot; readonly decoded: T }>();

  constructor(private readonly decoder: (value: unknown) => T) {}

  /** `decoder(value)`, from the memo while `value` is the same plain record, unchanged since it was decoded. */
  decode(value: unknown): T {
    if (!isPlainObject(value) || Object.getPrototypeOf(value) !== Object.prototype) return this.decoder(value);
    const known = this.entries.get(value);
    if (known !== undefined && sameRecord(value, known.snapshot)) return known.decoded;
    const decoded = this.decoder(value);
    const snapshot = snapshotOf(value, 0);
    if (snapshot) this.entries.set(value, { snapshot, decoded });
    return decoded;
  }
}
