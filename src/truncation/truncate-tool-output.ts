/**
 * Tool-output truncation (seed 002, layer 1): shrinks a tool result over the
 * limit while keeping it a JSON object the model can read.
 *
 * 1. Line rule: every string field over `maxLines` lines keeps its first
 *    `headLines` and last `tailLines` lines around `[... omitted X of Y lines ...]`.
 * 2. Byte rule: when the result's JSON is still over `maxBytes`, the budget is
 *    shared out fairly ("water-filling"): small fields stay whole, big ones
 *    are cut to head and tail, inside a line when a line alone is too big;
 *    what one cut leaves of its share goes to the larger fields after it.
 *    Long arrays of numbers keep their first values and a count (numbers-marker.ts).
 * 3. Structure: when an array (or an object) has more elements than the
 *    budget can show, it keeps its first and last elements around a marker
 *    element `[... omitted X of Y items ...]` (a marker key for objects); an
 *    object first tries all its keys with shorter strings.
 * 4. Fallback: if the result still does not fit (giant keys, say), it becomes
 *    `{ truncated_result: "<head and tail lines of its pretty-printed JSON>" }`.
 *
 * Pure: the input is never mutated, and no ADK import (see src/adk/tools/tool-output-callback.ts).
 */
import { cutString, countLines } from './cut-string.js';
import { fit, keptNoKey } from './fit-json.js';
import { jsonBytes } from './json-text-cost.js';
import { buildNode, hasLineCut, type JsonValue, type Node, type Run } from './json-tree.js';
import { TOOL_OUTPUT_DEFAULTS, validateResolvedLimits, type ResolvedToolOutputLimits } from './policy.js';

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

/**
 * Lines of a result, as it reads when printed: one per number, boolean or
 * null, a string's own lines, and one for an empty array or object.
 * `{ result: text }` therefore counts exactly the lines of `text`.
 */
export function countResultLines(value: unknown): number {
  // A stack, not recursion: a result nested thousands of levels deep is counted too.
  const pending: unknown[] = [value];
  let lines = 0;
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') lines += countLines(item);
    else if (typeof item === 'object' && item !== null) {
      const children = Array.isArray(item) ? item : Object.values(item);
      if (children.length === 0) lines += 1;
      else for (const child of children) pending.push(child);
    } else lines += 1;
  }
  return lines;
}

/**
 * Whether `truncateToolOutput` may cut `result`: its JSON over `maxBytes`, or a string over `maxLines` lines. Never
 * false where it would cut (it may be true where the cut finds nothing to do); no tree is built.
 */
export function mayCutToolOutput(result: Record<string, unknown>, limits: ResolvedToolOutputLimits): boolean {
  let text: string | undefined;
  try {
    text = JSON.stringify(result);
  } catch {
    return false;
  }
  if (text === undefined) return false;
  if (Buffer.byteLength(text, 'utf8') > limits.maxBytes) return true;
  const pending: unknown[] = [result];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      if (countLines(item) > limits.maxLines) return true;
    } else if (typeof item === 'object' && item !== null)
      for (const child of Object.values(item) as unknown[]) pending.push(child);
  }
  return false;
}

/**
 * Shrinks `result` to the limits (10 KiB of JSON or 256 lines per string by
 * default). Returns the new result and a record, or `undefined` when nothing
 * had to be cut or the result is not JSON-serialisable (circular, BigInt): it
 * then goes to the model as it is. Never mutates `result`.
 *
 * UTF-16 safe: no cut splits a surrogate pair or a grapheme cluster.
 *
 * @throws ContextGuardConfigError when `limits` is given and a field is missing or out of range.
 */
export function truncateToolOutput(input: TruncateToolOutputInput): TruncatedToolOutput | undefined {
  if (input.limits !== undefined && input.limits !== TOOL_OUTPUT_DEFAULTS)
    validateResolvedLimits(input.limits, 'truncateToolOutput()');
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

  const minShare = Math.min(512, Math.max(96, Math.floor(limits.maxBytes / 32)));
  const run: Run = { limits, minShare, lowShare: Math.max(64, Math.floor(minShare / 4)), cut: false };
  const over = originalBytes > limits.maxBytes;
  let output: JsonValue | undefined;
  try {
    const root = buildNode(plain, limits, over);
    if (!over && !hasLineCut(root)) return undefined;
    output = fitted(root, limits, run);
  } catch (error) {
    // Nesting too deep for the tree's recursion (JSON.stringify goes deeper): the text fallback still cuts it.
    if (!(error instanceof RangeError)) throw error;
  }
  if (
    output === undefined ||
    typeof output !== 'object' ||
    output === null ||
    Array.isArray(output) ||
    keptNoKey(output)
  ) {
    output = fallback(plain, text, limits);
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

/** The tree cut to the budget; `undefined` when no attempt fits. */
function fitted(root: Node, limits: ResolvedToolOutputLimits, run: Run): JsonValue | undefined {
  let budget = limits.maxBytes;
  // Fair shares are computed on sizes; a retry with the overshoot taken off covers rounding.
  for (let attempt = 0; attempt < 3 && budget > 0; attempt += 1) {
    run.cut = false;
    const candidate = fit(root, budget, run).value;
    const size = jsonBytes(candidate) ?? Number.POSITIVE_INFINITY;
    if (size <= limits.maxBytes) return candidate;
    budget -= size - limits.maxBytes;
  }
  return undefined;
}

/** Last resort: head and tail lines of the pretty-printed JSON (`compact` when too deep), as one string field. */
function fallback(plain: JsonValue, compact: string, limits: ResolvedToolOutputLimits): { [key: string]: JsonValue } {
  const overhead = jsonBytes({ [TRUNCATED_RESULT_KEY]: '' }) ?? 0;
  let pretty = compact;
  try {
    pretty = JSON.stringify(plain, null, 2);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  return { [TRUNCATED_RESULT_KEY]: cutString(pretty, limits, limits.maxBytes - overhead + 2).text };
}
