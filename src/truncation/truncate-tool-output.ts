/**
 * Tool-output truncation (seed 002, layer 1): shrinks a tool result over the
 * limit while keeping it a JSON object the model can read.
 *
 * 1. Line rule: every string field over `maxLines` lines keeps its first
 *    `headLines` and last `tailLines` lines around `[... omitted X of Y lines ...]`.
 * 2. Byte rule: when the result's JSON is still over `maxBytes`, the budget is
 *    shared out fairly ("water-filling"): small fields stay whole, big ones
 *    are cut to head and tail, inside a line when a line alone is too big.
 * 3. Structure: when an array (or an object) has more elements than the
 *    budget can show, it keeps its first and last elements around a marker
 *    element `[... omitted X of Y items ...]` (a marker key for objects).
 * 4. Fallback: if the result still does not fit (giant keys, say), it becomes
 *    `{ truncated_result: "<head and tail lines of its pretty-printed JSON>" }`.
 *
 * Pure: the input is never mutated, and no ADK import (see src/adk/tool-output-callback.ts).
 */
import { cutString, countLines, type LineLimits } from './cut-string.js';
import { jsonBytes, jsonStringBytes } from './json-text-cost.js';
import { TOOL_OUTPUT_DEFAULTS, type ResolvedToolOutputLimits } from './truncation-policy.js';

/** What one truncation did, for logs and audit trails. */
export interface ToolTruncationRecord {
  /** Name of the tool whose result was cut. */
  readonly tool: string;
  /** UTF-8 bytes of the result's JSON before the cut. */
  readonly originalBytes: number;
  /** UTF-8 bytes of the result's JSON after the cut. */
  readonly keptBytes: number;
  /** Lines of the result before the cut (see `countResultLines`). */
  readonly originalLines: number;
  /** Lines of the result after the cut, markers included. */
  readonly keptLines: number;
}

/** A cut result and its record. */
export interface TruncatedToolOutput {
  readonly result: Record<string, unknown>;
  readonly record: ToolTruncationRecord;
}

/** Input of `truncateToolOutput`. */
export interface TruncateToolOutputInput {
  /** Tool name, copied into the record. */
  readonly tool: string;
  /** The tool result as ADK hands it to `afterToolCallback` (a string result wrapped as `{ result }`). */
  readonly result: Record<string, unknown>;
  /** Limits to apply. @default TOOL_OUTPUT_DEFAULTS (10 KiB, 256 lines, 128 + 128 kept) */
  readonly limits?: ResolvedToolOutputLimits;
}

/** Key of the fallback form, used when no structured cut fits. */
export const TRUNCATED_RESULT_KEY = 'truncated_result';

type JsonScalar = string | number | boolean | null;
type JsonValue = JsonScalar | JsonValue[] | { [key: string]: JsonValue };

type Node =
  | {
      readonly kind: 'string';
      readonly value: string;
      readonly lined: string;
      readonly linesCut: boolean;
      readonly size: number;
    }
  | { readonly kind: 'scalar'; readonly value: number | boolean | null; readonly size: number }
  | { readonly kind: 'array'; readonly items: readonly Node[]; readonly size: number }
  | { readonly kind: 'object'; readonly entries: readonly Entry[]; readonly size: number };

interface Entry {
  readonly key: string;
  /** JSON bytes of `"key":`. */
  readonly overhead: number;
  readonly node: Node;
}

interface Run {
  readonly limits: LineLimits;
  /** Smallest share a big element is given before the middle elements are dropped instead. */
  readonly minShare: number;
  cut: boolean;
}

/**
 * Lines of a result, as it reads when printed: one per number, boolean or
 * null, a string's own lines, and one for an empty array or object.
 * `{ result: text }` therefore counts exactly the lines of `text`.
 */
export function countResultLines(value: unknown): number {
  if (typeof value === 'string') return countLines(value);
  if (Array.isArray(value))
    return value.length === 0 ? 1 : value.reduce<number>((sum, item) => sum + countResultLines(item), 0);
  if (typeof value === 'object' && value !== null) {
    const values = Object.values(value);
    return values.length === 0 ? 1 : values.reduce<number>((sum, item) => sum + countResultLines(item), 0);
  }
  return 1;
}

/**
 * Shrinks `result` to the limits (10 KiB of JSON or 256 lines per string by
 * default). Returns the new result and a record, or `undefined` when nothing
 * had to be cut or the result is not JSON-serialisable (circular, BigInt): it
 * then goes to the model as it is. Never mutates `result`.
 *
 * UTF-16 safe: no cut splits a surrogate pair or a grapheme cluster.
 */
export function truncateToolOutput(input: TruncateToolOutputInput): TruncatedToolOutput | undefined {
  const limits = input.limits ?? TOOL_OUTPUT_DEFAULTS;
  let text: string | undefined;
  try {
    text = JSON.stringify(input.result);
  } catch {
    return undefined;
  }
  if (text === undefined) return undefined;
  const originalBytes = Buffer.byteLength(text, 'utf8');
  // A JSON round trip gives plain data: the input stays untouched and toJSON/undefined behave as on the wire.
  const plain = JSON.parse(text) as JsonValue;
  if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) return undefined;

  const run: Run = { limits, minShare: Math.min(512, Math.max(96, Math.floor(limits.maxBytes / 32))), cut: false };
  const root = buildNode(plain, limits);
  if (root.size <= limits.maxBytes && !hasLineCut(root)) return undefined;

  let output: JsonValue | undefined;
  let budget = limits.maxBytes;
  // Fair shares are computed on sizes; a retry with the overshoot taken off covers rounding.
  for (let attempt = 0; attempt < 3 && budget > 0; attempt += 1) {
    run.cut = false;
    const candidate = fit(root, budget, run);
    const size = jsonBytes(candidate) ?? Number.POSITIVE_INFINITY;
    if (size <= limits.maxBytes) {
      output = candidate;
      break;
    }
    budget -= size - limits.maxBytes;
  }
  if (
    output === undefined ||
    typeof output !== 'object' ||
    output === null ||
    Array.isArray(output) ||
    keptNoKey(output)
  ) {
    output = fallback(plain, limits);
    run.cut = true;
  }
  if (!run.cut) return undefined;

  const result = output as Record<string, unknown>;
  return {
    result,
    record: {
      tool: input.tool,
      originalBytes,
      keptBytes: jsonBytes(result) ?? 0,
      originalLines: countResultLines(plain),
      keptLines: countResultLines(result),
    },
  };
}

function buildNode(value: JsonValue, limits: LineLimits): Node {
  if (typeof value === 'string') {
    const lined = cutString(value, limits, Number.POSITIVE_INFINITY);
    return { kind: 'string', value, lined: lined.text, linesCut: lined.cut, size: jsonStringBytes(lined.text) };
  }
  if (Array.isArray(value)) {
    const items = value.map((item) => buildNode(item, limits));
    return {
      kind: 'array',
      items,
      size: 2 + Math.max(0, items.length - 1) + items.reduce((sum, item) => sum + item.size, 0),
    };
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).map(([key, item]) => ({
      key,
      overhead: jsonStringBytes(key) + 1,
      node: buildNode(item, limits),
    }));
    return {
      kind: 'object',
      entries,
      size:
        2 + Math.max(0, entries.length - 1) + entries.reduce((sum, entry) => sum + entry.overhead + entry.node.size, 0),
    };
  }
  return { kind: 'scalar', value, size: jsonBytes(value) ?? 4 };
}

function hasLineCut(node: Node): boolean {
  switch (node.kind) {
    case 'string':
      return node.linesCut;
    case 'array':
      return node.items.some(hasLineCut);
    case 'object':
      return node.entries.some((entry) => hasLineCut(entry.node));
    default:
      return false;
  }
}

/** The node with the line rule applied and nothing else cut. */
function materialize(node: Node, run: Run): JsonValue {
  switch (node.kind) {
    case 'string':
      if (node.linesCut) run.cut = true;
      return node.lined;
    case 'scalar':
      return node.value;
    case 'array':
      return node.items.map((item) => materialize(item, run));
    case 'object':
      // fromEntries defines own properties, so a "__proto__" key stays data.
      return Object.fromEntries(node.entries.map((entry) => [entry.key, materialize(entry.node, run)]));
  }
}

/** The node, cut so that its JSON takes at most `budget` bytes where that is possible. */
function fit(node: Node, budget: number, run: Run): JsonValue {
  if (node.size <= budget) return materialize(node, run);
  switch (node.kind) {
    case 'string': {
      run.cut = true;
      return cutString(node.value, run.limits, budget).text;
    }
    case 'scalar':
      return node.value;
    case 'array': {
      const elements = node.items.map((item) => ({ overhead: 0, node: item }));
      const kept = fitElements(elements, budget, run, (omitted, total) => jsonStringBytes(itemsMarker(omitted, total)));
      const values: JsonValue[] = kept.head.map((element) => element.value);
      if (kept.omitted > 0) values.push(itemsMarker(kept.omitted, elements.length));
      values.push(...kept.tail.map((element) => element.value));
      return values;
    }
    case 'object': {
      const kept = fitElements(
        node.entries,
        budget,
        run,
        (omitted, total) => jsonStringBytes(keysMarker(omitted, total)) + 1 + jsonStringBytes(KEYS_MARKER_VALUE),
      );
      const pairs: Array<[string, JsonValue]> = kept.head.map((element) => [element.source.key, element.value]);
      if (kept.omitted > 0) pairs.push([keysMarker(kept.omitted, node.entries.length), KEYS_MARKER_VALUE]);
      pairs.push(...kept.tail.map((element): [string, JsonValue] => [element.source.key, element.value]));
      return Object.fromEntries(pairs);
    }
  }
}

/** True when a cut object kept none of its keys (giant keys): the text fallback then shows more. */
function keptNoKey(output: { [key: string]: JsonValue }): boolean {
  const keys = Object.keys(output);
  return keys.length > 0 && keys.every((key) => KEYS_MARKER_PATTERN.test(key));
}

const KEYS_MARKER_PATTERN = /^\[\.\.\. omitted \d+ of \d+ keys \.\.\.\]$/;

function itemsMarker(omitted: number, total: number): string {
  return `[... omitted ${omitted} of ${total} items ...]`;
}

function keysMarker(omitted: number, total: number): string {
  return `[... omitted ${omitted} of ${total} keys ...]`;
}

const KEYS_MARKER_VALUE = '...';

interface Element {
  /** Fixed bytes that cannot shrink: `"key":` for an object entry, 0 for an array item. */
  readonly overhead: number;
  readonly node: Node;
}

interface KeptElements<E extends Element> {
  readonly head: ReadonlyArray<{ source: E; value: JsonValue }>;
  readonly tail: ReadonlyArray<{ source: E; value: JsonValue }>;
  readonly omitted: number;
}

/**
 * Keeps as many elements from both ends as can each get a useful share of
 * `budget` (at least `minShare`, or their whole size when smaller), then
 * shares the budget out fairly among them and cuts each to its share.
 */
function fitElements<E extends Element>(
  elements: readonly E[],
  budget: number,
  run: Run,
  markerBytes: (omitted: number, total: number) => number,
): KeptElements<E> {
  const total = elements.length;
  const floor = elements.map((element) => element.overhead + Math.min(element.node.size, run.minShare));
  const sumFloor = floor.reduce((sum, value) => sum + value, 0);

  let headCount = total;
  let tailCount = 0;
  let markerSize = 0;
  if (frameBytes(total) + sumFloor > budget) {
    const kept = mostEndsKept(floor, budget, markerBytes);
    headCount = Math.ceil(kept / 2);
    tailCount = Math.floor(kept / 2);
    markerSize = markerBytes(total - kept, total);
    run.cut = true;
  }

  const keptElements = [...elements.slice(0, headCount), ...elements.slice(total - tailCount)];
  const omitted = total - keptElements.length;
  const count = keptElements.length + (omitted > 0 ? 1 : 0);
  const remaining =
    budget - frameBytes(count) - markerSize - keptElements.reduce((sum, element) => sum + element.overhead, 0);
  const shares = waterFill(
    keptElements.map((element) => element.node.size),
    remaining,
  );

  const values = keptElements.map((element, index) => ({
    source: element,
    value: fit(element.node, shares[index] ?? 0, run),
  }));
  return { head: values.slice(0, headCount), tail: values.slice(headCount), omitted };
}

/** Brackets, then one comma between neighbours. */
function frameBytes(count: number): number {
  return 2 + Math.max(0, count - 1);
}

/**
 * Drops the middle: the largest number of elements kept from both ends (the head takes the odd one) whose
 * floors, commas and marker fit in `budget`. Needs grow with the number kept, so it is a binary search.
 */
function mostEndsKept(
  floor: readonly number[],
  budget: number,
  markerBytes: (omitted: number, total: number) => number,
): number {
  const total = floor.length;
  const prefix = [0];
  for (let index = 0; index < total; index += 1) prefix.push((prefix[index] ?? 0) + (floor[index] ?? 0));
  const suffixSum = (count: number): number => (prefix[total] ?? 0) - (prefix[total - count] ?? 0);
  const need = (kept: number): number =>
    frameBytes(kept + 1) +
    markerBytes(total, total) +
    (prefix[Math.ceil(kept / 2)] ?? 0) +
    suffixSum(Math.floor(kept / 2));
  let low = 0;
  let high = total - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (need(middle) <= budget) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** Water-filling: smallest first, each takes at most an equal part of what is left; shares in input order. */
function waterFill(sizes: readonly number[], room: number): number[] {
  let remaining = room;
  const shares = new Array<number>(sizes.length).fill(0);
  const order = sizes.map((size, index) => ({ index, size })).sort((a, b) => a.size - b.size);
  let left = order.length;
  for (const { index, size } of order) {
    const share = Math.min(size, Math.max(0, Math.floor(remaining / left)));
    shares[index] = share;
    remaining -= share;
    left -= 1;
  }
  return shares;
}

/** Last resort: head and tail lines of the pretty-printed JSON, as one string field. */
function fallback(plain: JsonValue, limits: ResolvedToolOutputLimits): { [key: string]: JsonValue } {
  const overhead = jsonBytes({ [TRUNCATED_RESULT_KEY]: '' }) ?? 0;
  const pretty = JSON.stringify(plain, null, 2);
  return { [TRUNCATED_RESULT_KEY]: cutString(pretty, limits, limits.maxBytes - overhead + 2).text };
}
