/**
 * A copy of a plain value (records and lists of strings, numbers, booleans and null), taken to tell later
 * whether the value still holds what it held then: the same keys in the same order, the same values, at every
 * depth. A memo keyed by what a value holds (estimate/fixed-part-memo.ts) compares the value with its copy
 * instead of serialising it again: no allocation, no hash. Only what JSON text reads the same way is copied: a
 * record whose prototype is `Object`'s, a list whose prototype is `Array`'s.
 * Anything else (a class instance, a function, a symbol, a bigint, nesting past the depth or the size given) is
 * not copied, and the caller does without its memo.
 */

/** A record's keys in order and its values' copies. */
interface RecordCopy {
  readonly keys: readonly string[];
  readonly values: readonly PlainCopy[];
}

export type PlainCopy = RecordCopy | readonly PlainCopy[] | string | number | boolean | null | undefined;

/** What `plainCopyOf` returns for a value it does not copy. */
export const UNCOPIED = Symbol('uncopied');

/** How deep and how large a copy may be (`nodes`: records and lists, counted down as they are copied). */
interface CopyBounds {
  readonly maxDepth: number;
  nodes: number;
}

/** A copy of `value` at `depth`, or `UNCOPIED` (no wrapper object per value: a record may be copied on every call). */
export function plainCopyOf(value: unknown, depth: number, bounds: CopyBounds): PlainCopy | typeof UNCOPIED {
  if (value === null || value === undefined) return value;
  const kind = typeof value;
  if (kind === 'string' || kind === 'number' || kind === 'boolean') return value as string | number | boolean;
  if (depth >= bounds.maxDepth || kind !== 'object' || --bounds.nodes < 0) return UNCOPIED;
  if (Array.isArray(value))
    return Object.getPrototypeOf(value) === Array.prototype ? listCopyOf(value, depth, bounds) : UNCOPIED;
  if (Object.getPrototypeOf(value) !== Object.prototype) return UNCOPIED;
  return recordCopyOf(value as Record<string, unknown>, depth, bounds) ?? UNCOPIED;
}

function listCopyOf(list: readonly unknown[], depth: number, bounds: CopyBounds): PlainCopy[] | typeof UNCOPIED {
  const items: PlainCopy[] = [];
  for (let i = 0; i < list.length; i++) {
    const copied = plainCopyOf(list[i], depth + 1, bounds);
    if (copied === UNCOPIED) return UNCOPIED;
    items.push(copied);
  }
  return items;
}

/** A copy of `record`'s own enumerable keys and values, or `undefined` when one of its values is not copied. */
function recordCopyOf(record: Record<string, unknown>, depth: number, bounds: CopyBounds): RecordCopy | undefined {
  const keys = Object.keys(record);
  const values: PlainCopy[] = [];
  for (const key of keys) {
    const copied = plainCopyOf(record[key], depth + 1, bounds);
    if (copied === UNCOPIED) return undefined;
    values.push(copied);
  }
  return { keys, values };
}

/** Whether `value` still holds what `copy` was taken from. */
export function holdsCopy(value: unknown, copy: PlainCopy): boolean {
  if (copy === null || copy === undefined || typeof copy !== 'object') return value === copy;
  if (Array.isArray(copy)) {
    if (!Array.isArray(value) || Object.getPrototypeOf(value) !== Array.prototype) return false;
    const list = value as readonly unknown[];
    if (list.length !== copy.length) return false;
    for (let i = 0; i < copy.length; i++) if (!holdsCopy(list[i], copy[i] as PlainCopy)) return false;
    return true;
  }
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype &&
    holdsRecordCopy(value as Record<string, unknown>, copy as RecordCopy)
  );
}

/**
 * Whether `record` (a plain record, its prototype `Object`'s) still has `copy`'s keys, in order, and values. Keys
 * are walked with `for...in`, which on such a record lists its own keys in `Object.keys`' order without making
 * a list of them: one compare per node, no allocation (an enumerable key added to `Object.prototype` makes it
 * differ, which only costs a miss).
 */
function holdsRecordCopy(record: Record<string, unknown>, copy: RecordCopy): boolean {
  let index = 0;
  for (const key in record) {
    if (key !== copy.keys[index] || !holdsCopy(record[key], copy.values[index])) return false;
    index++;
  }
  return index === copy.keys.length;
}
