/**
 * An event's text as the recall search reads it. A tool's arguments and result are read as their values, each
 * string as it is, not as JSON text: there a line break is the two characters `\n`, and inside a string that
 * holds JSON itself (an MCP tool's text content, many APIs' bodies) the three `\\n`, the same three characters
 * a Windows path such as `C:\notes` makes; a word after one was not a word of its own, and "FAIL" at the start
 * of a test run's line was not found (the forty-ninth outside trial, review 41). A string that is JSON is read as
 * its values too, and terminal colour codes (`ESC[31m`) are left out. Other parts read as the summarizer's
 * rendering shows them (summary/render-content.ts).
 */
import type { Content, Part } from '@google/genai';
import { renderContent } from '../summary/render-content.js';

interface SearchLimits {
  readonly textChars: number;
  readonly argumentChars: number;
  readonly resultChars: number;
  readonly attachmentChars?: number | undefined;
}

/** Terminal control sequences (colours, cursor moves): `ESC [` parameters, then a final byte. */
const ANSI_SEQUENCE = new RegExp(`${String.fromCharCode(0x1b)}\\[[0-9;?]*[ -/]*[@-~]`, 'g');
/** Nesting read before the rest is left out (a cycle, a hostile depth). */
const MAX_DEPTH = 32;

export function searchText(content: Content, limits: SearchLimits): string {
  const parts = content.parts ?? [];
  if (!parts.some((part) => part.functionCall || part.functionResponse)) return renderContent(content, limits);
  const speaker = content.role === 'model' ? 'model' : 'user';
  const lines: string[] = [];
  for (const part of parts) {
    const line = toolLine(part, speaker, limits) ?? renderContent({ role: content.role, parts: [part] }, limits);
    if (line.length > 0) lines.push(line);
  }
  return lines.join('\n');
}

function toolLine(part: Part, speaker: string, limits: SearchLimits): string | undefined {
  if (part.functionCall)
    return `[${speaker}] called tool \`${part.functionCall.name ?? '?'}\` with ${valuesOf(part.functionCall.args, limits.argumentChars)}`;
  if (part.functionResponse)
    return `[tool \`${part.functionResponse.name ?? '?'}\` returned]: ${valuesOf(part.functionResponse.response, limits.resultChars)}`;
  return undefined;
}

/** A value's keys and values as lines, strings as they are, at most `limit` characters. */
function valuesOf(value: unknown, limit: number): string {
  const out: string[] = [];
  const budget = { left: limit };
  collect(value, out, budget, 0, new WeakSet());
  return out.join('\n').replace(ANSI_SEQUENCE, '');
}

function collect(value: unknown, out: string[], budget: { left: number }, depth: number, seen: WeakSet<object>): void {
  if (budget.left <= 0) return;
  if (typeof value === 'string') return push(out, budget, fromJsonText(value, out, budget, depth, seen) ? '' : value);
  if (value === null || typeof value !== 'object') return push(out, budget, String(value));
  if (depth >= MAX_DEPTH || seen.has(value)) return;
  seen.add(value);
  if (Array.isArray(value)) {
    for (const item of value) collect(item, out, budget, depth + 1, seen);
    return;
  }
  for (const [key, item] of Object.entries(value)) {
    push(out, budget, `${key}:`);
    collect(item, out, budget, depth + 1, seen);
  }
}

/** Reads a string that is JSON text (an object or array) as its values; false when it is not. */
function fromJsonText(text: string, out: string[], budget: { left: number }, depth: number, seen: WeakSet<object>) {
  const start = text.trimStart()[0];
  if ((start !== '{' && start !== '[') || depth >= MAX_DEPTH) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return false;
  }
  collect(parsed, out, budget, depth + 1, seen);
  return true;
}

function push(out: string[], budget: { left: number }, text: string): void {
  if (text.length === 0 || budget.left <= 0) return;
  const kept = text.length > budget.left ? text.slice(0, budget.left) : text;
  out.push(kept);
  budget.left -= kept.length + 1;
}
