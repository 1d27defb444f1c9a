/**
 * Cutting one part to a size, measured in the unit the part is sent in: the
 * UTF-8 bytes of its JSON (see src/truncation/json-text-cost.ts). Measuring
 * and cutting in one unit is what makes every cut smaller than what it cut: a
 * text full of quotes, backslashes, control characters or lone surrogates
 * costs up to six bytes per character once escaped, so a limit in characters
 * of JSON applied to the raw text would keep it whole.
 *
 * Text parts keep their head and tail with a marker (`cutString`). Function
 * responses and arguments stay valid JSON objects: long strings inside are cut
 * head+tail and long arrays keep their first and last items; if that is still
 * too big the object becomes `{ truncated_result: "<head … tail of its JSON>" }`.
 * Inputs are never mutated; cut parts are new objects.
 */
import type { Part } from '@google/genai';
import { safeJson } from '../estimate/json-text.js';
import { truncateMiddle } from '../text/truncate-text.js';
import { cutString, type LineLimits } from '../truncation/cut-string.js';
import { jsonStringBytes, utf8Bytes } from '../truncation/json-text-cost.js';
import { shrinkSummaryText, SUMMARY_MARKER } from '../summary/inject-summary.js';
import { withEditedSignature } from '../content/thought-signature.js';

const ARRAY_KEEP = 20;
/** No line rule: the last resort cuts by bytes alone (whole lines first, as `cutString` does). */
const NO_LINE_LIMIT: LineLimits = { maxLines: Number.POSITIVE_INFINITY, headLines: 0, tailLines: 0 };
/** Rounds of re-cutting a summary text whose characters cost more than a byte each. */
const SUMMARY_ATTEMPTS = 4;

/** UTF-8 bytes of a value's JSON: the size shrinking measures and cuts to. */
export function jsonSize(value: unknown): number {
  return utf8Bytes(safeJson(value));
}

/** `{"text":}`: the JSON of a part that holds only a text, around the text's own JSON. */
const TEXT_PART_FRAME_BYTES = 9;

/** True for a plain object whose only field (undefined ones aside, as JSON drops them) is its text. */
function isBareTextPart(part: Part): boolean {
  if (Object.getPrototypeOf(part) !== Object.prototype || 'toJSON' in part) return false;
  for (const key in part) if (key !== 'text' && (part as Record<string, unknown>)[key] !== undefined) return false;
  return true;
}

/**
 * `jsonSize(part)`, without serialising the object of a bare text part: a paste split into
 * 20,000 rows is 20,000 of them, and the bytes of a short text are counted without a copy.
 */
export function partSize(part: Part): number {
  const text = part.text;
  if (typeof text === 'string' && isBareTextPart(part)) return TEXT_PART_FRAME_BYTES + jsonStringBytes(text);
  return jsonSize(part);
}

function shrinkValue(value: unknown, stringLimit: number, depth: number): unknown {
  if (typeof value === 'string') return truncateMiddle(value, stringLimit);
  if (depth > 32 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const items =
      value.length > ARRAY_KEEP * 2
        ? [
            ...(value.slice(0, ARRAY_KEEP) as unknown[]),
            `[... omitted ${value.length - ARRAY_KEEP * 2} of ${value.length} items ...]`,
            ...(value.slice(-ARRAY_KEEP) as unknown[]),
          ]
        : value;
    return items.map((item) => shrinkValue(item, stringLimit, depth + 1));
  }
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) out[key] = shrinkValue(child, stringLimit, depth + 1);
  return out;
}

/** A JSON object no longer than about `maxBytes` UTF-8 bytes once serialised. */
export function shrinkJsonObject(response: Record<string, unknown>, maxBytes: number): Record<string, unknown> {
  const json = safeJson(response);
  if (utf8Bytes(json) <= maxBytes) return response;
  for (let limit = Math.floor(maxBytes / 2); limit >= 64; limit = Math.floor(limit / 2)) {
    const shrunk = shrinkValue(response, limit, 0) as Record<string, unknown>;
    if (jsonSize(shrunk) <= maxBytes) return shrunk;
  }
  // Inside a string the JSON text is escaped again (every quote and backslash doubles): cut until it fits.
  let room = Math.max(64, maxBytes - 40);
  for (;;) {
    const fallback = { truncated_result: truncateMiddle(json, room) };
    const size = jsonSize(fallback);
    if (size <= maxBytes || room <= 64) return fallback;
    room = Math.max(64, Math.floor((room * maxBytes) / size) - 1);
  }
}

/**
 * `text` within `maxBytes` of JSON string (quotes included). A summary content
 * keeps its header and restated request (`shrinkSummaryText`, which counts
 * characters: its limit is scaled to the text's bytes per character and
 * tightened until it fits); any other text keeps its head and tail.
 */
export function cutTextToBytes(text: string, maxBytes: number): string {
  if (!text.startsWith(SUMMARY_MARKER)) return cutString(text, NO_LINE_LIMIT, maxBytes).text;
  const bytes = jsonStringBytes(text);
  if (bytes <= maxBytes) return text;
  let chars = Math.min(text.length - 1, Math.floor((text.length * maxBytes) / bytes));
  let cut = shrinkSummaryText(text, Math.max(0, chars));
  for (let attempt = 1; attempt < SUMMARY_ATTEMPTS && jsonStringBytes(cut) > maxBytes && chars > 0; attempt++) {
    chars = Math.floor((chars * maxBytes) / jsonStringBytes(cut)) - 1;
    cut = shrinkSummaryText(text, Math.max(0, chars));
  }
  return cut;
}

/**
 * One part cut to about `maxBytes` UTF-8 bytes of JSON. A signed part (a Gemini thought signature) that is cut
 * carries the signature of an edited part instead of its own (content/thought-signature.ts).
 */
export function shrinkPart(part: Part, maxBytes: number): Part {
  return withEditedSignature(part, cutPart(part, maxBytes));
}

function cutPart(part: Part, maxBytes: number): Part {
  if (typeof part.text === 'string') {
    // What the part carries besides its text (field names, `thought`, a signature) is counted; the text gets the rest.
    const budget = Math.max(0, maxBytes - (jsonSize({ ...part, text: '' }) - 2));
    const text = cutTextToBytes(part.text, budget);
    if (text !== part.text) return { ...part, text };
  }
  if (part.functionResponse?.response) {
    const response = shrinkJsonObject(part.functionResponse.response, maxBytes);
    if (response !== part.functionResponse.response)
      return { ...part, functionResponse: { ...part.functionResponse, response } };
  }
  if (part.functionCall?.args && jsonSize(part.functionCall.args) > maxBytes) {
    const args = shrinkJsonObject(part.functionCall.args, maxBytes);
    // Arguments that cannot be cut leave the part as it is, its signature with it.
    if (args !== part.functionCall.args) return { ...part, functionCall: { ...part.functionCall, args } };
  }
  if (part.inlineData && (part.inlineData.data?.length ?? 0) > maxBytes * 4) {
    // Media cannot be cut in half; replace it with a note so the request fits.
    return omittedMedia(part);
  }
  return shrinkCodePart(part, maxBytes);
}

/**
 * A code execution part (`executableCode.code`, `codeExecutionResult.output`) cut head and tail
 * like a text: the model reads both, and a part left whole sent an in-flight turn's 80 KB output
 * over the window, and the user got the provider's 400.
 */
function shrinkCodePart(part: Part, maxBytes: number): Part {
  const { executableCode, codeExecutionResult } = part;
  if (typeof executableCode?.code === 'string') {
    const code = cutField(
      executableCode.code,
      maxBytes - (jsonSize({ ...part, executableCode: { ...executableCode, code: '' } }) - 2),
    );
    if (code !== executableCode.code) return { ...part, executableCode: { ...executableCode, code } };
  }
  if (typeof codeExecutionResult?.output === 'string') {
    const output = cutField(
      codeExecutionResult.output,
      maxBytes - (jsonSize({ ...part, codeExecutionResult: { ...codeExecutionResult, output: '' } }) - 2),
    );
    if (output !== codeExecutionResult.output)
      return { ...part, codeExecutionResult: { ...codeExecutionResult, output } };
  }
  return part;
}

/** `text` within `budget` bytes of JSON string, head and tail kept. */
function cutField(text: string, budget: number): string {
  return jsonStringBytes(text) <= budget ? text : cutString(text, NO_LINE_LIMIT, Math.max(0, budget)).text;
}

/** The note that replaces a media part too large for the window. */
export function omittedMedia(part: Part): Part {
  return {
    text: `[${part.inlineData?.mimeType ?? 'inline data'} omitted by context_guard: too large for the context window]`,
  };
}
