/**
 * The byte rule of tool-output truncation: a result's tree (json-tree.ts) cut so that its JSON
 * takes at most a budget, sharing the budget out fairly among the elements of each array and
 * object, and dropping middle elements behind a marker when they cannot each get a useful share.
 */
import { cutString } from './cut-string.js';
import { jsonStringBytes } from './json-text-cost.js';
import { materialize, type JsonValue, type Node, type Run } from './json-tree.js';
import { waterFill } from './water-fill.js';

/** A cut value and the UTF-8 bytes of its JSON. */
interface Fitted {
  readonly value: JsonValue;
  readonly size: number;
}

/** The node, cut so that its JSON takes at most `budget` bytes where that is possible. */
export function fit(node: Node, budget: number, run: Run): Fitted {
  if (node.size <= budget) return { value: materialize(node, run), size: node.size };
  switch (node.kind) {
    case 'string': {
      run.cut = true;
      const text = cutString(node.value, run.limits, budget).text;
      return { value: text, size: jsonStringBytes(text) };
    }
    case 'scalar':
      return { value: node.value, size: node.size };
    case 'array':
      return fitArray(node.items, budget, run);
    case 'object':
      return fitObject(node.entries, budget, run);
  }
}

function fitArray(items: readonly Node[], budget: number, run: Run): Fitted {
  const elements = items.map((item) => ({ overhead: 0, node: item }));
  const marker = (omitted: number, total: number): string => itemsMarker(omitted, total);
  const kept = fitElements(elements, budget, run, { bytes: (o, t) => jsonStringBytes(marker(o, t)), allKeys: false });
  const values: JsonValue[] = kept.head.map((element) => element.value);
  if (kept.omitted > 0) values.push(marker(kept.omitted, elements.length));
  values.push(...kept.tail.map((element) => element.value));
  return { value: values, size: kept.size };
}

function fitObject(entries: ReadonlyArray<Element & { key: string }>, budget: number, run: Run): Fitted {
  const markerBytes = (omitted: number, total: number): number =>
    jsonStringBytes(keysMarker(omitted, total)) + 1 + jsonStringBytes(KEYS_MARKER_VALUE);
  const kept = fitElements(entries, budget, run, { bytes: markerBytes, allKeys: true });
  const pairs: Array<[string, JsonValue]> = kept.head.map((element) => [element.source.key, element.value]);
  if (kept.omitted > 0) pairs.push([keysMarker(kept.omitted, entries.length), KEYS_MARKER_VALUE]);
  pairs.push(...kept.tail.map((element): [string, JsonValue] => [element.source.key, element.value]));
  return { value: Object.fromEntries(pairs), size: kept.size };
}

/** True when a cut object kept none of its keys (giant keys): the text fallback then shows more. */
export function keptNoKey(output: { [key: string]: JsonValue }): boolean {
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

/** How a container marks what it leaves out, and whether it keeps all its elements before dropping any. */
interface Marking {
  /** Bytes of the marker (with its `"...":` for objects) for `omitted` of `total` elements. */
  readonly bytes: (omitted: number, total: number) => number;
  /** An object keeps every key with shorter strings (down to `lowShare`) rather than drop keys: they are its shape. */
  readonly allKeys: boolean;
}

/** A slot's value before its share is fitted. */
const UNFITTED: Fitted = { value: null, size: 0 };

interface KeptElements<E extends Element> {
  readonly head: ReadonlyArray<{ source: E; value: JsonValue }>;
  readonly tail: ReadonlyArray<{ source: E; value: JsonValue }>;
  readonly omitted: number;
  /** JSON bytes of the container as cut: brackets, commas, marker and elements. */
  readonly size: number;
}

/**
 * Keeps as many elements from both ends as can each get a useful share of `budget` (see
 * `keptCount`), then shares the budget out fairly among them and cuts each to its share; what an
 * element's cut leaves unused goes to the larger ones after it.
 */
function fitElements<E extends Element>(
  elements: readonly E[],
  budget: number,
  run: Run,
  marking: Marking,
): KeptElements<E> {
  const total = elements.length;
  const kept = keptCount(elements, budget, run, marking);
  if (kept < total) run.cut = true;
  const headCount = kept < total ? Math.ceil(kept / 2) : total;
  const tailCount = kept < total ? Math.floor(kept / 2) : 0;
  const markerSize = kept < total ? marking.bytes(total - kept, total) : 0;

  const keptElements = [...elements.slice(0, headCount), ...elements.slice(total - tailCount)];
  const fixed =
    frameBytes(kept + (kept < total ? 1 : 0)) + markerSize + keptElements.reduce((sum, e) => sum + e.overhead, 0);
  const slots = keptElements.map((element): { element: E; fitted: Fitted } => ({ element, fitted: UNFITTED }));
  waterFill(
    slots,
    (slot) => slot.element.node.size,
    budget - fixed,
    (slot, share) => {
      slot.fitted = fit(slot.element.node, share, run);
      return slot.fitted.size;
    },
  );
  const values = slots.map((slot) => ({ source: slot.element, value: slot.fitted.value }));
  const size = fixed + slots.reduce((sum, slot) => sum + slot.fitted.size, 0);
  return { head: values.slice(0, headCount), tail: values.slice(headCount), omitted: total - kept, size };
}

/**
 * How many elements are kept: all when each can have `minShare` (or its whole size when smaller);
 * an object keeps all its keys when each can have at least `lowShare`; otherwise the most from both
 * ends that fit at `minShare`, or rather than none all or the most that fit at `lowShare`.
 */
function keptCount(elements: readonly Element[], budget: number, run: Run, marking: Marking): number {
  const total = elements.length;
  const floors = (share: number): number[] =>
    elements.map((element) => element.overhead + Math.min(element.node.size, share));
  const fitsAll = (share: number): boolean => frameBytes(total) + sum(floors(share)) <= budget;
  if (fitsAll(run.minShare)) return total;
  if (marking.allKeys && fitsAll(run.lowShare)) return total;
  const kept = mostEndsKept(floors(run.minShare), budget, marking.bytes);
  if (kept > 0) return kept;
  return fitsAll(run.lowShare) ? total : mostEndsKept(floors(run.lowShare), budget, marking.bytes);
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
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
