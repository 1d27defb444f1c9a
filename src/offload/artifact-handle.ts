/**
 * Offloading a huge tool result to an artifact: the artifact's name, its
 * content (the result's JSON text), the handle the cut result carries, and
 * reading an exact slice back. Pure; the ADK shell is src/adk/tools/offload-tool-output.ts.
 */
import { createHash } from 'node:crypto';
import type { Part } from '@google/genai';

/** Every offloaded result's artifact name starts with this (delete by it for retention); the recall tool reads no other artifact. */
export const OFFLOAD_ARTIFACT_PREFIX = 'context_guard-tool_output-';

/** Key of the handle (`{ name, version, chars, read }`) in a cut result the guard stored whole. */
export const OFFLOAD_HANDLE_KEY = 'full_result_artifact';

/** Media type of an offloaded result: its JSON text, UTF-8. */
const OFFLOAD_MIME_TYPE = 'application/json';

/** Where the whole result is and how to read it. */
interface OffloadHandle {
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
 * Marks the app segment of a name. `=` is not among the characters `safeSegment` keeps, so a
 * name under the prefix without it is an older one, made before names carried the app.
 */
const APP_MARK = 'app=';

/** Characters of the app name kept readable in an artifact name (the hash tells the rest apart). */
const APP_NAME_CHARS = 40;

/**
 * `app=<app, made safe, at most 40 characters>.<12 hex digits of the SHA-256 of the exact app
 * name>`: bounded and safe as a file or object name, and distinct for two apps whose safe forms
 * are the same (`a/b` and `a_b`).
 */
export function offloadAppSegment(appName: string): string {
  const hash = createHash('sha256').update(appName, 'utf8').digest('hex').slice(0, 12);
  return `${APP_MARK}${safeSegment(appName, 'app').slice(0, APP_NAME_CHARS)}.${hash}`;
}

/**
 * `context_guard-tool_output-<app segment>-<tool>-<invocation>-<call>.json`: unique per tool
 * call, safe as a file or object name, never `user:`-prefixed (ADK shares those across a
 * user's sessions), and carrying the app, because ADK's `FileArtifactService` keys artifacts
 * by user and session only: another app with the same user and session id reads the same
 * folder, and the recall tool tells its own app's names by this segment.
 */
export function offloadArtifactName(
  appName: string,
  tool: string,
  invocationId: string | undefined,
  functionCallId: string | undefined,
): string {
  return `${OFFLOAD_ARTIFACT_PREFIX}${offloadAppSegment(appName)}-${safeSegment(tool, 'tool')}-${safeSegment(invocationId, 'invocation')}-${safeSegment(functionCallId, 'call')}.json`;
}

/**
 * Whether the recall tool of `appName` may read the artifact `name`: one of the guard's names
 * of this app; or an older name without an app segment that this session's own events record
 * as saved (`recorded`, the names in their `actions.artifactDelta`): the session belongs to one
 * app, so another app's session with the same id cannot have recorded it. Only a name of the
 * characters the guard writes (`safeSegment`'s, the app mark's `=`): a path separator let a name
 * that starts like one of this app's climb to another app's artifact in a shared
 * `FileArtifactService` folder (the eighteenth outside trial: `<this app's prefix>/../<the other's>`).
 */
export function isOwnOffloadArtifact(name: string, appName: string, recorded: (name: string) => boolean): boolean {
  if (!name.startsWith(OFFLOAD_ARTIFACT_PREFIX) || !/^[A-Za-z0-9._=-]+$/.test(name)) return false;
  const rest = name.slice(OFFLOAD_ARTIFACT_PREFIX.length);
  if (rest.startsWith(APP_MARK)) return rest.startsWith(`${offloadAppSegment(appName)}-`);
  return recorded(name);
}

/**
 * Whether `name` is an offloaded result of the guard of any app (any name under the prefix and the app mark): an
 * `AgentTool` child is an app of its own that saves into its caller's session, and apps sharing a
 * `FileArtifactService` folder list each other's names; none of them is for `load_artifacts`.
 */
export function isAppOffloadArtifact(name: string): boolean {
  return name.startsWith(`${OFFLOAD_ARTIFACT_PREFIX}${APP_MARK}`);
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
    ? `The whole result is stored. Read any part with ${recallToolName}({"artifact": "${handle.name}", "pattern": "text to find"}), or "lines": "1-80" instead of "pattern".`
    : 'The whole result is stored as this artifact.';
  return { ...cut, [OFFLOAD_HANDLE_KEY]: { name: handle.name, version: handle.version, chars: handle.chars, read } };
}

/** One slice of an artifact's text, as the recall tool returns it. */
interface ArtifactSlice {
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
