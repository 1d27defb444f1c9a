/**
 * A private copy of a content and an exact comparison with it: how the measure cache recognises a
 * content it measured on an earlier call.
 *
 * ADK deep-copies every content on every call (`cloneDeep` in `getContents`), so no object of one
 * call's contents is the same object on the next; but a deep copy shares its strings, which are
 * values, and `===` on the same string is a pointer comparison. Comparing a content with a copy of
 * it as it was measured therefore costs a visit per node (keys, parts), not per byte, and is exact:
 * any edit made before the guard sees the request (another plugin, an agent callback before the
 * guard's, a request processor, an edited event) changes a key, a value or a structure, and is
 * seen wherever it is. Strings of equal value that are not the same string (a session read back
 * from a database on each turn) still compare equal, at memory speed.
 *
 * The copy is the cache's own: ADK's objects are handed on to later callbacks, which may edit them
 * in place after the guard measured them. Values other than plain objects, arrays and primitives
 * (none in ADK's contents) are never equal to anything, so a content holding one is measured again.
 */

/** A copy the comparison cannot trust (too deep or too large to copy: a cycle): never equal to anything. */
export const UNKEPT: unique symbol = Symbol('unkept');

/** Deeper than this (or larger than `MAX_NODES`) is not copied: such a content is measured on every call. */
const MAX_DEPTH = 64;
const MAX_NODES = 1_000_000;

const OBJECT_PROTOTYPE: unknown = Object.prototype;

function isPlainObject(value: object): value is Record<string, unknown> {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === OBJECT_PROTOTYPE || prototype === null;
}

/**
 * A plain object as kept: its keys in order and their values (compared without listing the new object's keys
 * into an array; the fingerprint of a new content walks these arrays rather than list the content's keys again).
 */
export class KeptObject {
  constructor(
    readonly keys: string[],
    readonly values: unknown[],
  ) {}
}

class Copier {
  private remaining = MAX_NODES;
  failed = false;
  /** Characters of the strings the copy holds: what it keeps alive once the caller's content is gone. */
  chars = 0;

  copy(value: unknown, depth: number): unknown {
    if (typeof value === 'string') this.chars += value.length;
    if (typeof value !== 'object' || value === null) return value;
    if (--this.remaining < 0 || depth > MAX_DEPTH) {
      this.failed = true;
      return undefined;
    }
    if (Array.isArray(value)) {
      const out: unknown[] = new Array<unknown>(value.length);
      for (let i = 0; i < value.length && !this.failed; i++) out[i] = this.copy(value[i], depth + 1);
      return out;
    }
    // An object with a toJSON method is fingerprinted as what it serialises to: its copy cannot stand for it.
    if (!isPlainObject(value) || typeof value['toJSON'] === 'function') {
      this.failed = true;
      return undefined;
    }
    const keys = Object.keys(value);
    const values: unknown[] = new Array<unknown>(keys.length);
    for (let i = 0; i < keys.length && !this.failed; i++) values[i] = this.copy(value[keys[i] as string], depth + 1);
    return new KeptObject(keys, values);
  }
}

/** The cache's own copy of `value` (strings shared), or `UNKEPT`. */
export function keepCopy(value: unknown): unknown {
  return keepSizedCopy(value).kept;
}

/** `keepCopy`, with the characters of the strings it holds (0 for `UNKEPT`, which holds none). */
export function keepSizedCopy(value: unknown): { readonly kept: unknown; readonly chars: number } {
  const copier = new Copier();
  const copy = copier.copy(value, 0);
  return copier.failed ? { kept: UNKEPT, chars: 0 } : { kept: copy, chars: copier.chars };
}

function sameObject(kept: KeptObject, value: object): boolean {
  if (Array.isArray(value) || !isPlainObject(value)) return false;
  const { keys, values } = kept;
  let n = 0;
  // The same keys in the same order: the JSON text a tool result is counted from depends on it.
  // (`for...in` sees only own keys here: the prototype is Object.prototype or null.)
  for (const key in value) {
    if (n >= keys.length || key !== keys[n] || !sameAsKept(values[n], value[key])) return false;
    n++;
  }
  return n === keys.length;
}

/** Whether `value` equals `kept` (made by `keepCopy`) exactly: the same structure, keys in order and values. */
export function sameAsKept(kept: unknown, value: unknown): boolean {
  if (typeof kept !== 'object' || kept === null)
    // NaN is the one primitive not equal to itself (a number a tool result may hold).
    return kept === value || (Number.isNaN(kept) && Number.isNaN(value));
  if (typeof value !== 'object' || value === null) return false;
  if (kept instanceof KeptObject) return sameObject(kept, value);
  if (!Array.isArray(kept) || !Array.isArray(value) || value.length !== kept.length) return false;
  for (let i = 0; i < kept.length; i++) if (!sameAsKept(kept[i], value[i])) return false;
  return true;
}
