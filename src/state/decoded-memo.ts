/**
 * A record decoded once per stored object. Within an invocation ADK's `State.get` hands back the very
 * object last set, so a call read the guard's usage record three times (the stored state, the pin cap,
 * the after-model update), each a full tolerant decode. The memo keys the decode by that object, weakly,
 * and trusts it only while the object still holds what it held when decoded (keys in order and values,
 * compared with a copy taken then, nested records and lists included): one edited in place is decoded
 * again. A decode depends only on the value, so nothing of one session can reach another's.
 */
import { isPlainObject } from '../config/plain-object.js';
import { holdsRecordCopy, recordCopyOf, type RecordCopy } from '../collections/plain-copy.js';

/** Nested records and lists deeper than this are not memoised: the object is decoded every time. */
const MAX_DEPTH = 3;

/** Records and lists a memoised record may hold at most, itself included. */
const MAX_NODES = 10_000;

export class DecodedMemo<T> {
  private readonly entries = new WeakMap<object, { readonly snapshot: RecordCopy; readonly decoded: T }>();

  constructor(private readonly decoder: (value: unknown) => T) {}

  /** `decoder(value)`, from the memo while `value` is the same plain record, unchanged since it was decoded. */
  decode(value: unknown): T {
    if (!isPlainObject(value) || Object.getPrototypeOf(value) !== Object.prototype) return this.decoder(value);
    const known = this.entries.get(value);
    if (known !== undefined && holdsRecordCopy(value, known.snapshot)) return known.decoded;
    const decoded = this.decoder(value);
    const snapshot = recordCopyOf(value, 0, { maxDepth: MAX_DEPTH, nodes: MAX_NODES });
    if (snapshot) this.entries.set(value, { snapshot, decoded });
    return decoded;
  }
}
