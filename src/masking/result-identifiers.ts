/**
 * The identifiers a masked tool result's placeholder keeps, so the common
 * follow-up (the order id just created, the name just found) needs no recall:
 * values under identifier-like keys (`id`, `*_id`, `name`, `sku`, …), tokens
 * that look like ids in text (`ORD-7731`, UUIDs), then other numbers.
 *
 * Bounded and deterministic: a walk of at most `MAX_NODES` nodes, the first
 * `MAX_CHILDREN` items of each array and the `MAX_CHILDREN` smallest keys of each
 * object, visited in sorted order (a store may reorder an object's keys,
 * PostgreSQL's jsonb does; bounded-keys.ts), and at
 * most `MAX_IDENTIFIERS` items of `MAX_VALUE_CHARS` characters each. The same
 * result gives the same bytes on every call, as the provider's cache needs.
 */
import { boundedSortedKeys } from './bounded-keys.js';

/** Items a placeholder keeps at most. */
export const MAX_IDENTIFIERS = 4;
/** Characters of one kept value at most (longer strings are text, not identifiers). */
export const MAX_VALUE_CHARS = 40;
/** Nodes the walk visits at most. */
const MAX_NODES = 256;
/** Keys of an object, or items of an array, the walk reads at most. */
const MAX_CHILDREN = 32;
/** Characters of a string scanned for id-like tokens. */
const SCAN_CHARS = 2_048;

/** Keys whose scalar value is an identifier, whole (`id`, `name`, `sku`)… */
const IDENTIFIER_KEYS = new Set([
  'id',
  'ids',
  'uuid',
  'guid',
  'name',
  'title',
  'key',
  'code',
  'sku',
  'ref',
  'reference',
  'number',
  'email',
  'url',
  'uri',
  'path',
  'slug',
  'handle',
]);
/** …or as a snake or kebab suffix (`order_id`, `file-name`)… */
const SNAKE_SUFFIX = /[_-](?:id|ids|uuid|name|key|code|number|no|ref|reference|email|url|path)$/i;
/** …or as a camelCase suffix (`orderId`, `fileName`; not `paid`). */
const CAMEL_SUFFIX = /[a-z0-9](?:Id|ID|Ids|IDs|Uuid|UUID|Name|Key|Code|Number|No|Ref|Reference|Email|Url|URL|Path)$/;

function isIdentifierKey(key: string): boolean {
  return IDENTIFIER_KEYS.has(key.toLowerCase()) || SNAKE_SUFFIX.test(key) || CAMEL_SUFFIX.test(key);
}

/** Tokens that look like ids in free text: `ORD-7731`, `TRK-99812-ZQ`, `INV_2024_17`, and UUIDs. */
const ID_TOKEN =
  /\b(?:[A-Z][A-Z0-9]*[-_][A-Z0-9_-]*\d[A-Z0-9_-]*|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\b/g;

/**
 * Whether the token found at `index` of `text` is a fragment of a longer one: it ends on a separator, or letters or
 * digits go on after it (`VALUE-97-` of `VALUE-97-7a437z`, whose lower-case tail the pattern leaves out). A fragment
 * named as an id misleads the model; the whole token is not kept either (a pattern that took lower-case tails kept
 * phrases such as `ERROR_connection_refused_after_3_retries`, and backtracked for seconds on hostile text).
 */
function isFragment(token: string, text: string, index: number): boolean {
  const last = token.charCodeAt(token.length - 1);
  return last === 0x2d || last === 0x5f || /[A-Za-z0-9]/.test(text.charAt(index + token.length));
}

/** Kinds in the order they are kept: identifier keys first, then id-like tokens, then other numbers. */
const RANK_IDENTIFIER_KEY = 0;
const RANK_ID_TOKEN = 1;
const RANK_NUMBER = 2;

interface Candidate {
  readonly rank: number;
  readonly order: number;
  readonly text: string;
}

interface Node {
  readonly value: unknown;
  /** The key the value sits under (an array's items keep their array's key). */
  readonly key: string | undefined;
}

function children(node: Node): Node[] {
  const { value } = node;
  if (Array.isArray(value))
    return value.slice(0, MAX_CHILDREN).map((item: unknown) => ({ value: item, key: node.key }));
  if (typeof value !== 'object' || value === null) return [];
  return boundedSortedKeys(value, MAX_CHILDREN).map((key) => ({ value: (value as Record<string, unknown>)[key], key }));
}

/** `key=value`, the key left out when it is too long to be a name. */
const render = (key: string | undefined, value: string | number): string =>
  key === undefined || key.length > MAX_VALUE_CHARS ? JSON.stringify(value) : `${key}=${JSON.stringify(value)}`;

/** The candidates one scalar gives. */
function candidatesOf(node: Node, order: number): Candidate[] {
  const { value, key } = node;
  const identifierKey = key !== undefined && key.length <= MAX_VALUE_CHARS && isIdentifierKey(key);
  if (typeof value === 'number' && Number.isFinite(value))
    return [{ rank: identifierKey ? RANK_IDENTIFIER_KEY : RANK_NUMBER, order, text: render(key, value) }];
  if (typeof value !== 'string') return [];
  const trimmed = value.trim();
  if (identifierKey && trimmed.length > 0 && trimmed.length <= MAX_VALUE_CHARS)
    return [{ rank: RANK_IDENTIFIER_KEY, order, text: render(key, trimmed) }];
  const scanned = trimmed.slice(0, SCAN_CHARS);
  const tokens = [...scanned.matchAll(ID_TOKEN)].filter((match) => !isFragment(match[0], scanned, match.index));
  return tokens
    .map((match) => match[0])
    .filter((token) => token.length <= MAX_VALUE_CHARS)
    .slice(0, MAX_IDENTIFIERS)
    .map((token, i) => ({ rank: RANK_ID_TOKEN, order: order + i / MAX_IDENTIFIERS, text: JSON.stringify(token) }));
}

/**
 * Up to `MAX_IDENTIFIERS` identifiers of a tool result, rendered `key="value"`, `key=42` or
 * `"TOKEN"`, without repeats: identifier keys first, then id-like tokens, then other numbers,
 * each in the walk's order.
 */
export function resultIdentifiers(result: unknown): string[] {
  const found: Candidate[] = [];
  const stack: Node[] = [{ value: result, key: undefined }];
  for (let visited = 0; stack.length > 0 && visited < MAX_NODES; visited++) {
    const node = stack.pop() as Node;
    found.push(...candidatesOf(node, visited));
    const next = children(node);
    for (let i = next.length - 1; i >= 0; i--) stack.push(next[i] as Node);
  }
  found.sort((a, b) => a.rank - b.rank || a.order - b.order);
  const kept: string[] = [];
  for (const candidate of found) {
    if (kept.length >= MAX_IDENTIFIERS) break;
    if (!kept.includes(candidate.text)) kept.push(candidate.text);
  }
  return kept;
}
