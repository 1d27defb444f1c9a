/**
 * Head+tail shrinking of oversized parts, for the last resort: a kept tail, a
 * single message or a tool result that cannot fit even after compaction.
 *
 * Text parts keep their head and tail with a marker. Function responses stay
 * valid JSON objects: long strings inside are cut head+tail and long arrays
 * keep their first and last items; if that is still too big the response
 * becomes `{ truncated_result: "<head … tail of its JSON>" }`. Inputs are never
 * mutated; shrunk contents are new objects.
 */
import type { Content, Part } from '@google/genai';
import { estimateContentTokens, estimatePartTokens } from '../estimate/estimate-content.js';
import { safeJson } from '../estimate/json-text.js';
import type { Tokenizer } from '../estimate/tokenizer.js';
import { truncateMiddle } from '../text/truncate-text.js';
import { shrinkSummaryText } from './inject-summary.js';

const ARRAY_KEEP = 20;
/** Parts whose JSON is shorter than this are never shrunk. */
const SMALL_PART_CHARS = 512;
/** The smallest payload a shrunk part is cut to. */
const FLOOR_CHARS = 200;

function shrinkValue(value: unknown, stringLimit: number, depth: number): unknown {
  if (typeof value === 'string') return truncateMiddle(value, stringLimit);
  if (depth > 32 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const items = value.length > ARRAY_KEEP * 2
      ? [...value.slice(0, ARRAY_KEEP), `[... omitted ${value.length - ARRAY_KEEP * 2} of ${value.length} items ...]`, ...value.slice(-ARRAY_KEEP)]
      : value;
    return items.map((item) => shrinkValue(item, stringLimit, depth + 1));
  }
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) out[key] = shrinkValue(child, stringLimit, depth + 1);
  return out;
}

/** A JSON object no longer than about `maxChars` once serialised. */
export function shrinkJsonObject(response: Record<string, unknown>, maxChars: number): Record<string, unknown> {
  const json = safeJson(response);
  if (json.length <= maxChars) return response;
  for (let limit = Math.floor(maxChars / 2); limit >= 64; limit = Math.floor(limit / 2)) {
    const shrunk = shrinkValue(response, limit, 0) as Record<string, unknown>;
    if (safeJson(shrunk).length <= maxChars) return shrunk;
  }
  // Inside a string the JSON text is escaped again (every quote and backslash doubles): cut until it fits.
  let room = Math.max(64, maxChars - 40);
  for (;;) {
    const fallback = { truncated_result: truncateMiddle(json, room) };
    const size = safeJson(fallback).length;
    if (size <= maxChars || room <= 64) return fallback;
    room = Math.max(64, Math.floor((room * maxChars) / size) - 1);
  }
}

/** One part cut to about `maxChars` characters of payload. */
export function shrinkPart(part: Part, maxChars: number): Part {
  // The summary content keeps its header and the restated request; its body is what gets cut.
  if (typeof part.text === 'string' && part.text.length > maxChars) return { ...part, text: shrinkSummaryText(part.text, maxChars) };
  if (part.functionResponse?.response) {
    const response = shrinkJsonObject(part.functionResponse.response, maxChars);
    if (response !== part.functionResponse.response) return { ...part, functionResponse: { ...part.functionResponse, response } };
  }
  if (part.functionCall?.args && safeJson(part.functionCall.args).length > maxChars) {
    return { ...part, functionCall: { ...part.functionCall, args: shrinkJsonObject(part.functionCall.args, maxChars) } };
  }
  if (part.inlineData && (part.inlineData.data?.length ?? 0) > maxChars * 4) {
    // Media cannot be cut in half; replace it with a note so the request fits.
    return omittedMedia(part);
  }
  return part;
}

/** The note that replaces a media part too large for the window. */
function omittedMedia(part: Part): Part {
  return { text: `[${part.inlineData?.mimeType ?? 'inline data'} omitted by context_guard: too large for the context window]` };
}

/**
 * Replaces media parts, costliest first, until `contents` fit `budget`. Media
 * are priced in tokens (258 per image tile or PDF page), not by their bytes,
 * so a high-resolution image with a small file is caught here, not by
 * `shrinkPart`'s byte check.
 */
function omitCostlyMedia(
  contents: Content[],
  tokens: number,
  budget: number,
  tokenizer: Tokenizer,
  mayShrink: (content: Content, index: number) => boolean = () => true,
): { contents: Content[]; tokens: number } {
  const media: Array<{ content: number; part: number; tokens: number }> = [];
  contents.forEach((content, c) =>
    content.parts?.forEach((part, p) => {
      if (!mayShrink(content, c)) return;
      if (part.inlineData) media.push({ content: c, part: p, tokens: estimatePartTokens(part, tokenizer) });
    }),
  );
  media.sort((a, b) => b.tokens - a.tokens);
  let current = contents;
  let total = tokens;
  for (const item of media) {
    if (total <= budget) break;
    const content = current[item.content]!;
    const parts = (content.parts ?? []).slice();
    const note = omittedMedia(parts[item.part]!);
    parts[item.part] = note;
    current = current.map((existing, i) => (i === item.content ? { ...content, parts } : existing));
    total = total - item.tokens + estimatePartTokens(note, tokenizer);
  }
  return { contents: current, tokens: total };
}

/**
 * Shrinks the largest parts of `contents` until their estimate fits `budget`
 * tokens (or nothing more can be cut). Returns new contents and their estimate.
 *
 * Contents for which `protect` answers true (the summary with its restated
 * request, the user's own messages) are cut only when cutting everything else
 * to its floor was not enough: a tool result is always cheaper to lose than
 * what the user asked.
 */
export function shrinkContentsToBudget(
  contents: readonly Content[],
  budget: number,
  tokenizer: Tokenizer,
  options: { readonly protect?: (content: Content, index: number) => boolean } = {},
): { contents: Content[]; tokens: number } {
  const estimate = (list: readonly Content[]): number => list.reduce((sum, content) => sum + estimateContentTokens(content, tokenizer), 0);
  const protect = options.protect;
  const first = shrinkWithin(contents.slice(), estimate(contents), budget, tokenizer, estimate, protect ? (content, index) => !protect(content, index) : () => true);
  if (first.tokens <= budget || !protect) return first;
  return shrinkWithin(first.contents, first.tokens, budget, tokenizer, estimate, () => true);
}

/** The shrinking rounds, on the contents `mayShrink` allows. */
function shrinkWithin(
  contents: Content[],
  startTokens: number,
  budget: number,
  tokenizer: Tokenizer,
  estimate: (list: readonly Content[]) => number,
  mayShrink: (content: Content, index: number) => boolean,
): { contents: Content[]; tokens: number } {
  /** Every part of at least SMALL_PART_CHARS shrunk to `limitFor(its JSON size)`; other contents kept as they are. */
  const shrinkLargeParts = (list: readonly Content[], limitFor: (size: number) => number): Content[] =>
    list.map((content, index) => {
      if (!mayShrink(content, index)) return content;
      const parts = content.parts ?? [];
      const shrunkParts = parts.map((part) => {
        const size = safeJson(part).length;
        return size < SMALL_PART_CHARS ? part : shrinkPart(part, limitFor(size));
      });
      return shrunkParts.every((part, i) => part === parts[i]) ? content : { ...content, parts: shrunkParts };
    });
  let current = contents;
  let tokens = startTokens;
  // Big parts shrink in proportion to the excess; a round that does not help is discarded.
  for (let round = 0; round < 8 && tokens > budget; round++) {
    const excessRatio = Math.max(0.05, budget / tokens) * 0.9;
    const next = shrinkLargeParts(current, (size) => Math.max(FLOOR_CHARS, Math.floor(size * excessRatio)));
    const nextTokens = estimate(next);
    if (nextTokens >= tokens) break;
    current = next;
    tokens = nextTokens;
  }
  // Still too big: media that cost more than the room go first (they cannot be cut in half)...
  if (tokens > budget) {
    const withoutMedia = omitCostlyMedia(current, tokens, budget, tokenizer, mayShrink);
    current = withoutMedia.contents;
    tokens = withoutMedia.tokens;
  }
  // ...then every big part at its floor, so that what is sent is as small as shrinking can make it.
  if (tokens > budget) {
    const floored = shrinkLargeParts(current, () => FLOOR_CHARS);
    const flooredTokens = estimate(floored);
    if (flooredTokens < tokens) {
      current = floored;
      tokens = flooredTokens;
    }
  }
  return { contents: current, tokens };
}
