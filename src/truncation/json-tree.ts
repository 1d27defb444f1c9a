/**
 * A tool result as a tree of sizes, for tool-output truncation: each node with the UTF-8 bytes of
 * its JSON after the line rule (every string over `maxLines` lines cut to head and tail), so the
 * byte rule (fit-json.ts) can share a budget out without serialising again.
 */
import { cutString, type LineLimits } from './cut-string.js';
import { jsonBytes, jsonStringBytes } from './json-text-cost.js';
import { isLongNumberRun, shortenNumbers } from './numbers-marker.js';

type JsonScalar = string | number | boolean | null;
export type JsonValue = JsonScalar | JsonValue[] | { [key: string]: JsonValue };

export type Node =
  | {
      readonly kind: 'string';
      readonly value: string;
      readonly lined: string;
      readonly linesCut: boolean;
      readonly size: number;
    }
  | { readonly kind: 'scalar'; readonly value: number | boolean | null; readonly size: number }
  | {
      readonly kind: 'array';
      readonly items: readonly Node[];
      readonly size: number;
      /** A long array of numbers already cut to its first values and a count (numbers-marker.ts). */
      readonly numbersCut?: boolean;
    }
  | { readonly kind: 'object'; readonly entries: readonly Entry[]; readonly size: number };

interface Entry {
  readonly key: string;
  /** JSON bytes of `"key":`. */
  readonly overhead: number;
  readonly node: Node;
}

export interface Run {
  readonly limits: LineLimits;
  /** Smallest share a big element is given before the middle elements are dropped instead. */
  readonly minShare: number;
  /** Smallest share a big field of an object is given before its middle keys are dropped instead. */
  readonly lowShare: number;
  cut: boolean;
}

/**
 * The tree of `value`, with the line rule applied to its strings; with `cutNumbers`, every long
 * array of numbers is cut to its first values and a count (for a result over its byte limit).
 */
export function buildNode(value: JsonValue, limits: LineLimits, cutNumbers = false): Node {
  if (typeof value === 'string') {
    const lined = cutString(value, limits, Number.POSITIVE_INFINITY);
    return { kind: 'string', value, lined: lined.text, linesCut: lined.cut, size: jsonStringBytes(lined.text) };
  }
  if (Array.isArray(value)) {
    const numbersCut = cutNumbers && isLongNumberRun(value);
    const items = (numbersCut ? shortenNumbers(value) : value).map((item) => buildNode(item, limits, cutNumbers));
    return {
      kind: 'array',
      items,
      size: 2 + Math.max(0, items.length - 1) + items.reduce((sum, item) => sum + item.size, 0),
      ...(numbersCut ? { numbersCut } : {}),
    };
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).map(([key, item]) => ({
      key,
      overhead: jsonStringBytes(key) + 1,
      node: buildNode(item, limits, cutNumbers),
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

/** Whether the line rule cut a string somewhere in `node`. */
export function hasLineCut(node: Node): boolean {
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
export function materialize(node: Node, run: Run): JsonValue {
  switch (node.kind) {
    case 'string':
      if (node.linesCut) run.cut = true;
      return node.lined;
    case 'scalar':
      return node.value;
    case 'array':
      if (node.numbersCut === true) run.cut = true;
      return node.items.map((item) => materialize(item, run));
    case 'object':
      // fromEntries defines own properties, so a "__proto__" key stays data.
      return Object.fromEntries(node.entries.map((entry) => [entry.key, materialize(entry.node, run)]));
  }
}
