/**
 * Observation masking: the cheapest remedy for a full window. Tool results
 * older than the last few are replaced by a short placeholder that says what
 * was elided (tool, size, how it began) and how to get it back; no model call
 * is made. The call and response parts stay where they are, so no pair is
 * orphaned; the user's messages are never touched, and the latest tool result
 * of the in-flight turn (the one the model is answering) is never masked.
 *
 * Masking is a pure function of the contents and a watermark (`upTo`), so the
 * same history is masked the same way on every later call, byte for byte:
 * the request prefix stays stable between maskings (which keeps a provider's
 * prompt cache warm), exactly like the summary's watermark.
 */
import type { Content, Part } from '@google/genai';
import { hasFunctionResponse, latestUserRequestIndex } from '../content/content-shape.js';
import { safeJson } from '../estimate/json-text.js';
import { truncateEnd } from '../text/truncate-text.js';

/** The key of a masked function response, so a masked result is recognisable (and never masked twice). */
export const MASKED_RESULT_KEY = 'context_guard_masked';
/** Results whose JSON is shorter than this are left alone: the placeholder would save nothing. */
export const MIN_MASKED_CHARS = 600;
/** Characters of the result's beginning quoted in the placeholder, so the model knows what it was. */
const PREVIEW_CHARS = 120;

export interface MaskHint {
  /** Name of the recall tool, when the agent has one. */
  readonly recallToolName?: string | undefined;
}

/**
 * Where masking stops: tool results before this index are the ones to mask. The last `keepRecent`
 * tool results of the in-flight turn (after the user's latest request) are kept, the latest one
 * always (`keepRecent` is at least 1); results of completed turns are maskable, since the
 * alternative when a compaction is due is to summarize them away.
 */
export function maskKeepFrom(contents: readonly Content[], keepRecent: number): number {
  const turnStart = Math.max(0, latestUserRequestIndex(contents));
  let kept = 0;
  for (let i = contents.length - 1; i > turnStart; i--) {
    if (!hasFunctionResponse(contents[i])) continue;
    kept++;
    if (kept === Math.max(1, keepRecent)) return i;
  }
  return turnStart;
}

function placeholder(name: string, json: string, hint: MaskHint): Record<string, unknown> {
  const preview = truncateEnd(json.replace(/\s+/g, ' '), PREVIEW_CHARS);
  const how = hint.recallToolName
    ? `call ${hint.recallToolName} with words from it to read it again`
    : 'call the tool again if it is needed';
  return { [MASKED_RESULT_KEY]: `Result of tool '${name}' (${json.length} characters) elided to save context; ${how}. It began: ${preview}` };
}

function maskPart(part: Part, hint: MaskHint): Part {
  const response = part.functionResponse;
  if (!response?.response || MASKED_RESULT_KEY in response.response) return part;
  const json = safeJson(response.response);
  if (json.length < MIN_MASKED_CHARS) return part;
  return { ...part, functionResponse: { ...response, response: placeholder(response.name ?? 'unknown', json, hint) } };
}

/** The content with every large tool result replaced by its placeholder; the same object when nothing changes. */
export function maskContent(content: Content, hint: MaskHint): Content {
  if (!hasFunctionResponse(content)) return content;
  const parts = (content.parts ?? []).map((part) => maskPart(part, hint));
  return parts.some((part, i) => part !== content.parts?.[i]) ? { ...content, parts } : content;
}

/** `contents` with the tool results in [from, upTo) masked; contents outside the range are the same objects. */
export function applyMask(contents: readonly Content[], from: number, upTo: number, hint: MaskHint): Content[] {
  return contents.map((content, i) => (i >= from && i < upTo ? maskContent(content, hint) : content));
}
