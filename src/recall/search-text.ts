/**
 * An event's text as the recall search reads it: tool arguments and results, and another agent's results as ADK
 * hands them on ("For context: … tool returned result: {…}"), as their values, not as JSON text. In JSON text a line
 * break is the two characters `\n`, and inside a string that holds JSON itself (an MCP tool's text content, many
 * APIs' bodies) the three `\\n`, which a Windows path such as `C:\notes` makes too; a word after one was not a word
 * of its own, and "FAIL" at the start of a test run's line was not found (the forty-ninth outside trial, review 41).
 * JSON text is read by a scan, never parsed and written again: numbers stay as they were written (an id over 2^53,
 * a price of 12.50; review 42). Terminal colour codes (`ESC[31m`) are left out. Other parts read as the summarizer's
 * rendering shows them (summary/render-content.ts).
 */
import type { Content, Part } from '@google/genai';
import { foreignJsonIn } from '../content/foreign-result.js';
import { safeJson } from '../estimate/json-text.js';
import { renderContent } from '../summary/render-content.js';
import { jsonTextValues, looksLikeJson } from './json-text-values.js';

interface SearchLimits {
  readonly textChars: number;
  readonly argumentChars: number;
  readonly resultChars: number;
  readonly attachmentChars?: number | undefined;
}

/** Terminal control sequences (colours, cursor moves): `ESC [` parameters, then a final byte. */
const ANSI_SEQUENCE = new RegExp(`${String.fromCharCode(0x1b)}\\[[0-9;?]*[ -/]*[@-~]`, 'g');
/** Nesting walked as values; deeper, a value is read as its JSON text. */
const MAX_DEPTH = 32;

export function searchText(content: Content, limits: SearchLimits): string {
  const parts = content.parts ?? [];
  const foreign = parts[0]?.text === 'For context:';
  if (!foreign && !parts.some((part) => part.functionCall || part.functionResponse))
    return renderContent(content, limits).replace(ANSI_SEQUENCE, '');
  const speaker = content.role === 'model' ? 'model' : 'user';
  const lines: string[] = [];
  for (const part of parts) {
    const line =
      toolLine(part, speaker, limits) ??
      (foreign ? foreignLine(part, limits.resultChars) : undefined) ??
      renderContent({ role: content.role, parts: [part] }, limits);
    if (line.length > 0) lines.push(line);
  }
  return lines.join('\n').replace(ANSI_SEQUENCE, '');
}

function toolLine(part: Part, speaker: string, limits: SearchLimits): string | undefined {
  const call = part.functionCall;
  if (call) return `[${speaker}] called tool \`${call.name ?? '?'}\` with ${valuesOf(call.args, limits.argumentChars)}`;
  const response = part.functionResponse;
  if (response)
    return `[tool \`${response.name ?? '?'}\` returned]: ${valuesOf(response.response, limits.resultChars)}`;
  return undefined;
}

/** Another agent's call or result as ADK renders it: its words, then its JSON as values. */
function foreignLine(part: Part, limit: number): string | undefined {
  const found = typeof part.text === 'string' ? foreignJsonIn(part.text) : undefined;
  return found && `${found.lead}${jsonTextValues(found.text, limit)}`;
}

/** A value's keys and values as lines, strings as they are, at most about `limit` characters. */
function valuesOf(value: unknown, limit: number): string {
  const out: string[] = [];
  collect(value, { out, left: limit }, 0, new WeakSet());
  return out.join('\n');
}

interface Sink {
  readonly out: string[];
  left: number;
}

function collect(value: unknown, sink: Sink, depth: number, path: WeakSet<object>): void {
  if (sink.left <= 0 || value === undefined || typeof value === 'function' || typeof value === 'symbol') return;
  if (typeof value === 'string') return push(sink, looksLikeJson(value) ? jsonTextValues(value, sink.left) : value);
  if (value === null) return push(sink, 'null');
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return push(sink, String(value));
  if (typeof value !== 'object') return;
  // A Date, or anything else that says how JSON writes it.
  const json: unknown = (value as { toJSON?: unknown }).toJSON;
  if (typeof json === 'function') return collect((json as () => unknown).call(value), sink, depth + 1, path);
  if (path.has(value)) return;
  if (depth >= MAX_DEPTH) return push(sink, safeJson(value));
  // Only the objects on the way here: one object referenced twice is read twice, a cycle once.
  path.add(value);
  if (Array.isArray(value)) for (const item of value) collect(item, sink, depth + 1, path);
  else
    for (const [key, item] of Object.entries(value)) {
      push(sink, `${key}:`);
      collect(item, sink, depth + 1, path);
    }
  path.delete(value);
}

function push(sink: Sink, text: string): void {
  if (text.length === 0 || sink.left <= 0) return;
  const kept = text.length > sink.left ? text.slice(0, sink.left) : text;
  sink.out.push(kept);
  sink.left -= kept.length + 1;
}
