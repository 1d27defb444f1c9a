/**
 * A stored tool result as numbered lines, the view the recall tool reads by line range and
 * searches by pattern. A result is JSON, whose text holds a multi-line string on one line
 * (`"a\nb"`), so the lines are those of its values: a string leaf is split at its line breaks
 * under a `path:` header line, any other leaf is one `path: value` line. The same view is used
 * for a search and for a read, so a line number a search returns reads the same line.
 */

import type { Content } from '@google/genai';

/** Leaves deeper than this are shown as one JSON line: a result is data, not a deep tree. */
const MAX_DEPTH = 32;

function leafLines(value: unknown, path: string, depth: number, out: string[]): void {
  if (typeof value === 'string') {
    if (!value.includes('\n')) out.push(`${path}: ${value}`);
    else {
      out.push(`${path}:`);
      for (const line of value.split(/\r?\n/)) out.push(line);
    }
    return;
  }
  if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH) {
    out.push(`${path}: ${safeStringify(value)}`);
    return;
  }
  const entries = Array.isArray(value)
    ? value.map((item, index) => [`${path}[${index}]`, item] as const)
    : Object.entries(value).map(([key, item]) => [path ? `${path}.${key}` : key, item] as const);
  if (entries.length === 0) out.push(`${path}: ${Array.isArray(value) ? '[]' : '{}'}`);
  for (const [childPath, item] of entries) leafLines(item, childPath, depth + 1, out);
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The lines of a result object (a tool's response as ADK stores it). */
function resultLines(result: unknown): string[] {
  const out: string[] = [];
  leafLines(result, '', 0, out);
  return out;
}

/** The lines of an offloaded result's JSON text; text that is not JSON is split as it is. */
export function storedTextLines(text: string): string[] {
  try {
    return resultLines(JSON.parse(text) as unknown);
  } catch {
    return text.split(/\r?\n/);
  }
}

/** Appends the lines of `text` to `out` (one push each: a spread of a 200,000-line output would overflow the stack). */
function pushLines(out: string[], text: string): void {
  for (const line of text.split(/\r?\n/)) out.push(line);
}

/** The lines of one event's content: its texts, its calls (one line each), its tool results, and code runs' code and output. */
export function contentLines(content: Content | undefined): string[] {
  const out: string[] = [];
  for (const part of content?.parts ?? []) {
    if (part.thought === true) continue;
    if (typeof part.text === 'string') pushLines(out, part.text);
    else if (part.functionCall)
      out.push(`called ${part.functionCall.name ?? '?'} with ${safeStringify(part.functionCall.args ?? {})}`);
    else if (part.functionResponse) leafLines(part.functionResponse.response ?? {}, '', 0, out);
    // Code the model ran and its output (Gemini's code execution): masked like a tool result, read back by line.
    else if (typeof part.executableCode?.code === 'string') pushLines(out, part.executableCode.code);
    if (typeof part.codeExecutionResult?.output === 'string') pushLines(out, part.codeExecutionResult.output);
  }
  return out;
}
