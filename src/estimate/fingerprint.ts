/**
 * Cheap structural fingerprints of contents.
 *
 * ADK deep-clones every content on every step, so object identity cannot key a
 * cache. A fingerprint walks the structure (keys, kinds, lengths) and hashes
 * strings in full: up to 4,096 characters in this loop, longer ones through
 * Node's native SHA-1 (2-3 ms per million characters, paid once per new content: the
 * measure cache compares known contents without hashing them again).
 * Sampling a long string (head, quarters, tail) made two texts of one length
 * that differ elsewhere one content: a document edited in its middle, or the
 * same bytes with CJK in place of Latin text, took the token count the process
 * memo held for another (another user's) text, and a request 6x the window was
 * sent as fitting. Probes (`probeFingerprint`) still sample: they only guard a
 * cache.
 *
 * An object is hashed as the sum of its key-value pairs' hashes (`addObject`),
 * tool arguments and results included: a database may give a stored content
 * back with its keys in another order (PostgreSQL's jsonb stores them by
 * length, then bytes), and a fingerprint that followed the order changed at the
 * first reload, so a watermark anchored on a tool call or result no longer
 * matched and its summary was dropped. Tool data was hashed through its JSON
 * text (order-bound) before; the costs are in docs/design.md ("Keys that come
 * back in another order").
 */
import { foreignJsonIn } from '../content/foreign-result.js';
import { Hasher, SEED_HIGH, SEED_LOW, Tag } from './fingerprint-hasher.js';
import { KeptObject, UNKEPT } from './kept-content.js';

/** How a walk treats tool arguments and results. */
const enum Bulk {
  /** Walk them like any other value (fingerprints, and probes of ordinary contents). */
  Walk,
  /** Hash only that they are there (probes of contents whose bulk is too large to revisit on every call). */
  Skip,
}

/** Keys under which a content keeps its bulk data: `functionCall.args` and `functionResponse.response`. */
function isBulkKey(key: string): boolean {
  return key === 'response' || key === 'args';
}

function addValue(hasher: Hasher, value: unknown, depth: number, bulk: Bulk): void {
  if (--hasher.remaining < 0) return;
  if (depth > 64) {
    hasher.mix(Tag.Deep);
    return;
  }
  if (value === null || value === undefined) {
    hasher.mix(value === null ? Tag.Null : Tag.Undefined);
    return;
  }
  const kind = typeof value;
  if (kind === 'string') {
    hasher.mix(Tag.String);
    hasher.addString(value as string);
  } else if (kind === 'number') hasher.addNumberValue(value as number);
  else if (kind === 'boolean') hasher.mix(value === true ? Tag.True : Tag.False);
  else if (kind === 'bigint') {
    hasher.mix(Tag.BigInt);
    hasher.addString((value as bigint).toString());
  } else if (kind === 'object') {
    if (isCycle(hasher, value)) return;
    hasher.path.push(value);
    addComposite(hasher, value, depth, bulk);
    hasher.path.pop();
  } else {
    hasher.mix(Tag.Other);
    hasher.addTag(kind);
  }
}

/**
 * An object or array already being walked, met again inside itself: hashed as how far up it is, not walked
 * again (a cycle was walked until the node budget ran out, its long texts hashed on every round).
 */
function isCycle(hasher: Hasher, value: object): boolean {
  const at = hasher.path.lastIndexOf(value);
  if (at < 0) return false;
  hasher.mix(Tag.Cycle);
  hasher.addLength(hasher.path.length - at);
  return true;
}

function addComposite(hasher: Hasher, value: object, depth: number, bulk: Bulk): void {
  if (Array.isArray(value)) {
    hasher.mix(Tag.ArrayOpen);
    hasher.addLength(value.length);
    // Past the budget nothing more is hashed: stop at once rather than visit the rest of a 90,000-item level.
    for (let i = 0; i < value.length && hasher.remaining >= 0; i++) addValue(hasher, value[i], depth + 1, bulk);
    hasher.mix(Tag.ArrayClose);
  } else if (value instanceof KeptObject) addPairs(hasher, value.keys, value.values, undefined, depth, bulk);
  else if (typeof (value as { toJSON?: unknown }).toJSON === 'function') addSerialized(hasher, value, depth, bulk);
  else addObject(hasher, value as Record<string, unknown>, depth, bulk);
}

/**
 * An object with a `toJSON` method (a `Date`, a database driver's value) as what JSON.stringify sends
 * of it, so it is one content with the text a database gives back: a `Date` has no own keys, and two
 * dates were one fingerprint, one token count and one placeholder. A `toJSON` that throws is hashed as
 * such: a fingerprint never throws.
 */
function addSerialized(hasher: Hasher, value: unknown, depth: number, bulk: Bulk): void {
  let serialized: unknown;
  try {
    serialized = (value as { toJSON(): unknown }).toJSON();
  } catch {
    hasher.addTag('throws');
    return;
  }
  // A toJSON that returns its own object (or another with one) is walked as a plain object: no loop.
  if (
    typeof serialized === 'object' &&
    serialized !== null &&
    typeof (serialized as { toJSON?: unknown }).toJSON === 'function'
  )
    addObject(hasher, serialized as Record<string, unknown>, depth, bulk);
  else addValue(hasher, serialized, depth + 1, bulk);
}

/**
 * An object as the sum of its key-value pairs' hashes, each hashed on its own from the same seed: a
 * sum does not depend on the order of the keys (a database may give an object back with its keys
 * reordered: PostgreSQL's jsonb does), and needs no sort (a sort per object made a 1 MB result of
 * records five times slower to fingerprint).
 */
function addObject(hasher: Hasher, record: Record<string, unknown>, depth: number, bulk: Bulk): void {
  addPairs(hasher, Object.keys(record), undefined, record, depth, bulk);
}

/**
 * The pairs of an object: its values read from `values` (a kept copy's, in the order of `keys`) or from
 * `record`. Walking a kept copy's arrays spares listing a new content's keys a second time (listing the
 * keys of a 90,000-key object is most of its walk).
 */
function addPairs(
  hasher: Hasher,
  keys: readonly string[],
  values: readonly unknown[] | undefined,
  record: Record<string, unknown> | undefined,
  depth: number,
  bulk: Bulk,
): void {
  const outerLow = hasher.low;
  const outerHigh = hasher.high;
  let sumLow = 0;
  let sumHigh = 0;
  let pairs = 0;
  for (let i = 0; i < keys.length && hasher.remaining >= 0; i++) {
    const key = keys[i] as string;
    const child = values ? values[i] : (record as Record<string, unknown>)[key];
    if (child === undefined) continue;
    hasher.low = SEED_LOW;
    hasher.high = SEED_HIGH;
    hasher.mix(Tag.Key);
    hasher.addTag(key);
    if (bulk === Bulk.Skip && typeof child === 'object' && child !== null && isBulkKey(key)) hasher.addTag('bulk');
    else if (key === 'text' && typeof child === 'string' && hasher.wholeStrings) addText(hasher, child, depth + 1);
    else addValue(hasher, child, depth + 1, bulk);
    sumLow = (sumLow + hasher.low) & 0x3ffffff;
    sumHigh = (sumHigh + hasher.high) & 0x3ffffff;
    pairs++;
  }
  hasher.low = outerLow;
  hasher.high = outerHigh;
  hasher.mix(Tag.ObjectOpen);
  hasher.addLength(pairs);
  hasher.mix(sumLow);
  hasher.mix(sumHigh);
  hasher.mix(Tag.ObjectClose);
}

/**
 * A part's text: another agent's tool result or call, which ADK writes with its JSON text (content/foreign-result.ts),
 * as its words, its length and the JSON read back, hashed like a function response's result, whatever the order of
 * its keys (the nineteenth review: read back from PostgreSQL's jsonb, the text of the same result had its keys in
 * another order, and a summary anchored on it was dropped and made again on every reload; the forty-fifth outside
 * trial: the same for a call's arguments, 12 summaries where one held). Only a text that is
 * exactly what `JSON.stringify` writes of what it reads back: review 20 made a 179 KB text (a duplicate key, spaces,
 * escapes) one fingerprint, hence one token count, with another user's 1.4 KB result. Any other text as it is.
 */
function addText(hasher: Hasher, text: string, depth: number): void {
  const result = foreignJsonIn(text);
  const value = result === undefined ? undefined : canonicalJson(result.text);
  if (result === undefined || value === undefined) {
    addValue(hasher, text, depth, Bulk.Walk);
    return;
  }
  hasher.addTag('foreign-result');
  hasher.addLength(text.length);
  hasher.addString(result.lead);
  addValue(hasher, value, depth + 1, Bulk.Walk);
}

/** `text` read as JSON when it is an object or an array that `JSON.stringify` writes back as `text`, else `undefined`. */
function canonicalJson(text: string): object | undefined {
  const first = text.charCodeAt(0);
  if (first !== 0x7b && first !== 0x5b) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && JSON.stringify(value) === text ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Nodes a fingerprint walks at most: an object referring to itself twice would otherwise make the walk
 * (cut only at depth 64) exponential. A tool result of more nodes (some ten megabytes of JSON) is told
 * apart from another only by its first million.
 */
const MAX_WALK_NODES = 1_000_000;

/**
 * Fingerprint of a `Content` (or any JSON-like value), independent of the order of its objects' keys.
 */
export function fingerprint(value: unknown): string {
  const hasher = new Hasher(MAX_WALK_NODES, true);
  addValue(hasher, value, 0, Bulk.Walk);
  return hasher.digest();
}

/**
 * The fingerprint of a content from the copy `keepCopy` made of it: the same as `fingerprint(content)`
 * (a kept object holds the content's keys in their order and its values), walked over the copy's arrays.
 * A content that could not be kept is walked itself.
 */
export function fingerprintOfKept(kept: unknown, content: unknown): string {
  return fingerprint(kept === UNKEPT ? content : kept);
}

/** Nodes a probe visits at most. */
const PROBE_NODES = 256;

/**
 * A cheaper fingerprint for re-identifying a content already measured: a
 * walk stopped after `maxNodes` nodes, so its cost is bounded even for a tool
 * result of 100,000 nodes. With `skipBulk` tool arguments and results are not
 * looked into at all, for contents whose bulk is too large to revisit on every
 * call (listing the keys of a 90,000-key object alone takes milliseconds). A
 * change past the first `maxNodes` nodes (in walk order), or inside skipped
 * bulk, goes unseen, so a probe may only guard a cache and is compared only
 * with probes, never with fingerprints.
 */
export function probeFingerprint(
  value: unknown,
  options: { readonly maxNodes?: number; readonly skipBulk?: boolean } = {},
): string {
  const hasher = new Hasher(options.maxNodes ?? PROBE_NODES);
  addValue(hasher, value, 0, options.skipBulk === true ? Bulk.Skip : Bulk.Walk);
  return hasher.digest();
}
