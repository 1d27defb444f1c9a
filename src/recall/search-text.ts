/**
 * An event's text as the recall search reads it. A tool's arguments and result, another agent's as ADK hands them on
 * ("For context: … tool returned result: {…}") and a text that is JSON are read as their values, not as JSON text:
 * there a line break is the two characters `\n`, and inside a string that holds JSON itself (an MCP tool's text
 * content) the three `\\n`, which a Windows path such as `C:\notes` makes too; a word after one was not a word of its
 * own, and "FAIL" at the start of a test run's line was not found (the forty-ninth outside trial, review 41). The
 * values come from the JSON text the recall tool reads back (`safeJson`, so a value's `toJSON` is honoured as
 * `JSON.stringify` does), scanned (recall/json-text-values.ts), then held to the same length as that text, head and
 * tail. Terminal colour codes (`ESC[31m`) are left out. Other parts read as the summarizer's rendering shows them.
 */
import type { Content, Part } from '@google/genai';
import { foreignJsonIn } from '../content/foreign-result.js';
import { safeJson } from '../estimate/json-text.js';
import { renderContent } from '../summary/render-content.js';
import { middleCut, truncateMiddle } from '../text/truncate-text.js';
import { jsonTailValues, jsonTextValues, looksLikeJson } from './json-text-values.js';

interface SearchLimits {
  readonly textChars: number;
  readonly argumentChars: number;
  readonly resultChars: number;
  readonly attachmentChars?: number | undefined;
}

/** Terminal control sequences (colours, cursor moves): `ESC [` parameters, then a final byte. */
const ANSI_SEQUENCE = new RegExp(`${String.fromCharCode(0x1b)}\\[[0-9;?]*[ -/]*[@-~]`, 'g');

export function searchText(content: Content, limits: SearchLimits): string {
  const parts = content.parts ?? [];
  const foreign = parts[0]?.text === 'For context:';
  const lines: string[] = [];
  for (const part of parts) {
    const line =
      toolLine(part, content.role === 'model' ? 'model' : 'user', limits) ??
      (foreign ? foreignLine(part, limits.resultChars) : undefined) ??
      renderContent({ role: content.role, parts: [jsonTextRead(part)] }, limits);
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
  return found && `${found.lead}${valuesIn(found.text, limit)}`;
}

/** A value's JSON text as values, held to `limit` characters, head and tail. */
function valuesOf(value: unknown, limit: number): string {
  return valuesIn(safeJson(value ?? {}), limit);
}

/**
 * JSON text as values, from what the recall tool's readback keeps of it (`truncateMiddle` to `limit`, head and tail),
 * so that a search finds nothing the readback cannot show (review 44); each window is read as values, the head as the
 * start of a longer text, the tail as its end.
 */
function valuesIn(json: string, limit: number): string {
  if (json.length <= limit) return jsonTextValues(json) ?? json;
  const cut = middleCut(json, limit);
  if (!cut) return truncateMiddle(json, limit);
  const head = jsonTextValues(cut.head, { partial: true }) ?? cut.head;
  return `${head}\n[... omitted ...]\n${jsonTailValues(cut.tail) ?? cut.tail}`;
}

/** A text part that is JSON text (a model's or a user's), read as its values. */
function jsonTextRead(part: Part): Part {
  if (typeof part.text !== 'string' || !looksLikeJson(part.text)) return part;
  const values = jsonTextValues(part.text);
  return values === undefined ? part : { ...part, text: values };
}
