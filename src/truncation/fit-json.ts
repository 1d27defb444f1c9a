/**
 * The byte rule of tool-output truncation: a result's tree (json-tree.ts) cut so that its JSON
 * takes at most a budget, sharing the budget out fairly among the elements of each array and
 * object, and dropping middle elements behind a marker when they cannot each get a useful share.
 */
import { cutString } from './cut-string.js';
import { jsonStringBytes } from './json-text-cost.js';
import { materialize, type JsonValue, type Node, type Run } from './json-tree.js';
import { waterFill } from './water-fill.js';

/** The node, cut so that its JSON takes at most `budget` bytes where that is possible. */
export function fit(node: Node, budget: number, run: Run): JsonValue {
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
