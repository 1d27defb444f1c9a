/**
 * Offloading a huge tool result to an artifact: the artifact's name, its
 * content (the result's JSON text), the handle the cut result carries, and
 * reading an exact slice back. Pure; the ADK shell is src/adk/offload-tool-output.ts.
 */
import type { Part } from '@google/genai';

/** Every offloaded result's artifact name starts with this; the recall tool reads no other artifact. */
export const OFFLOAD_ARTIFACT_PREFIX = 'context_guard-tool_output-';

/** Key of the handle in a cut result. */
export const OFFLOAD_HANDLE_KEY = 'full_result_artifact';

/** Media type of an offloaded result: its JSON text, UTF-8. */
export const OFFLOAD_MIME_TYPE = 'application/json';

/** Where the whole result is and how to read it. */
export interface OffloadHandle {
  readonly name: string;
  readonly version: number;
  /** Characters (UTF-16 code units) of the stored JSON text. */
  readonly chars: number;
}

function safeSegment(value: string | undefined, fallback: string): string {
  const cleaned = (value ?? '').replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 80);
  return cleaned.length > 0 ? cleaned : fallback;
}

/**
 * `context_guard-tool_output-<tool>-<invocation>-<call>.json`: unique per tool
 * call, safe as a file or object name, and never `user:`-prefixed (ADK shares
 * those across a user's sessions).
 */
export function offloadArtifactName(
  tool: string,
  invocationId: string | undefined,
  functionCallId: string | undefined,
): string {
  return `${OFFLOAD_ARTIFACT_PREFIX}${safeSegment(tool, 'tool')}-${safeSegment(invocationId, 'invocation')}-${safeSegment(functionCallId, 'call')}.json`;
}

/** The artifact content: the JSON text as inline data with its media type. */
export function offloadPart(text: string): Part {
  return { inlineData: { mimeType: OFFLOAD_MIME_TYPE, data: Buffer.from(text, 'utf8').toString('base64') } };
}

/** The text of a stored artifact (inline data as written by `offloadPart`, or a text part); `undefined` for anything else. */
export function offloadText(part: Part | undefined): string | undefined {
  if (!part) return undefined;
  if (typeof part.inlineData?.data === 'string') return Buffer.from(part.inlineData.data, 'base64').toString('utf8');
  return typeof part.text === 'string' ? part.text : undefined;
}

/** The cut result with the handle added under `full_result_artifact` (a copy; the cut result is not changed). */
export function withOffloadHandle(
  cut: Record<string, unknown>,
  handle: OffloadHandle,
  recallToolName: string | undefined,
): Record<string, unknown> {
  const read = recallToolName
    ? `The whole result is stored. Read any part with ${recallToolName}({"artifact": "${handle.name}", "offset": 0, "length": 4000}).`
    : 'The whole result is stored as this artifact.';
  return { ...cut, [OFFLOAD_HANDLE_KEY]: { name: handle.name, version: handle.version, chars: handle.chars, read } };
}

/** One slice of an artifact's text, as the recall tool returns it. */
export interface ArtifactSlice {
  readonly offset: number;
  readonly text: string;
  readonly total_chars: number;
  /** Where the next slice starts; absent at the end. */
  readonly next_offset?: number;
}

/**
 * Exactly `text.slice(offset, offset + length)`, with `length` capped at
 * `maxChars` (default length: `maxChars`). Offsets count UTF-16 code units,
 * as JavaScript strings do; a bad offset or length is clamped, never thrown.
 */
export function sliceArtifactText(text: string, offset: unknown, length: unknown, maxChars: number): ArtifactSlice {
  const start =
    typeof offset === 'number' && Number.isFinite(offset) ? Math.min(Math.max(0, Math.floor(offset)), text.length) : 0;
  const wanted = typeof length === 'number' && Number.isFinite(length) && length > 0 ? Math.floor(length) : maxChars;
  const end = Math.min(text.length, start + Math.min(wanted, maxChars));
  return {
    offset: start,
    text: text.slice(start, end),
    total_chars: text.length,
    ...(end < text.length ? { next_offset: end } : {}),
  };
}
