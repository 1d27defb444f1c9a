/**
 * An event's text as the recall search reads it. A tool's arguments and result, another agent's as ADK hands them on
 * ("For context: … tool returned result: {…}") and a text that is JSON are read as their values, not as JSON text:
 * there a line break is the two characters `\n`, and inside a string that holds JSON itself (an MCP tool's text
 * content) the three `\\n`, which a Windows path such as `C:\notes` makes too; a word after one was not a word of its
 * own, and "FAIL" at the start of a test run's line was not found (the forty-ninth outside trial, review 41). The
 * values come from the JSON text the recall tool reads back (`safeJson`, so a value's `toJSON` is honoured as
 * `JSON.stringify` does), scanned (recall/json-text-values.ts), then held to the same length as that text, head and
 * tail. Terminal colour codes (`ESC[31m`) are left out. Everything is rendered as the summarizer renders it
 * (summary/render-content.ts `toolData`): only the values differ.
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
  const read = parts.map((part) => textRead(part, foreign, limits.resultChars));
  return renderContent({ ...content, parts: read }, { ...limits, toolData: valuesOf }).replace(ANSI_SEQUENCE, '');
}

/** A text part as values: another agent's call or result as ADK renders it, or a text that is JSON. */
function textRead(part: Part, foreign: boolean, limit: number): Part {
  if (typeof part.text !== 'string') return part;
  const text = (foreign ? foreignLine(part.text, limit) : undefined) ?? jsonText(part.text);
  return text === undefined ? part : { ...part, text };
}

/** Another agent's call or result as ADK renders it: its words, then its JSON as values. */
function foreignLine(text: string, limit: number): string | undefined {
  const found = foreignJsonIn(text);
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

/** A text that is JSON text (a model's or a user's) as its values; undefined for any other. */
function jsonText(text: string): string | undefined {
  return looksLikeJson(text) ? jsonTextValues(text) : undefined;
}
