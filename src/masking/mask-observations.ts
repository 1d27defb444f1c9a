/**
 * Observation masking: the cheapest remedy for a full window. Tool results
 * older than the last few are replaced by a short placeholder that says what
 * was elided (tool, size, its identifiers, an excerpt) and how to get it
 * back; no model call is made. A placeholder suggests calling the tool again
 * only for a tool declared read-only: calling any other again could repeat a
 * side effect (a second order). The call and response parts stay where they are, so no pair is
 * orphaned; the user's messages are never touched, and the latest tool result
 * of the in-flight turn (the one the model is answering) is never masked.
 *
 * Masking is a pure function of the content, its token count and a watermark
 * (`upTo`), so the same history is masked the same way on every later call,
 * byte for byte: the request prefix stays stable between maskings (which keeps
 * a provider's prompt cache warm), exactly like the summary's watermark. It
 * is built once per result and process (masking/placeholder-cache.ts), from the result as
 * a database stores it: its size is the result's JSON text's length, its excerpt and
 * identifiers come from walks of bounded nodes over the text read back.
 */
import type { Content, Part } from '@google/genai';
import { hasFunctionResponse, latestUserRequestIndex } from '../content/content-shape.js';
import { storedForm } from '../estimate/json-text.js';
import { safeHead, truncateEnd } from '../text/truncate-text.js';
import { boundedSortedKeys } from './bounded-keys.js';
import { resultIdentifiers } from './result-identifiers.js';

/** The key of a masked function response, so a masked result is recognisable (and never masked twice). */
export const MASKED_RESULT_KEY = 'context_guard_masked';
/** Contents of fewer tokens are left alone: the placeholder would save nothing. */
const MIN_MASKED_TOKENS = 150;
/** Characters of the result's excerpt quoted in the placeholder, so the model knows what it was. */
const PREVIEW_CHARS = 120;
/** Nodes a preview walk visits at most. */
const PREVIEW_NODES = 64;

export interface MaskHint {
  /** Name of the recall tool, when the agent has one. */
  readonly recallToolName?: string | undefined;
  /** Whether a tool is declared read-only (the `tools` option): only then may a placeholder suggest calling it again. */
  readonly isReadOnly?: ((toolName: string) => boolean) | undefined;
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

/** A string whose head is one run of base64 characters (an image or file sent as text): no words to preview. */
const OPAQUE_HEAD = /^[A-Za-z0-9+/=_-]{100}/;

/** Shortest field that can stand for a result: `en`, `ok` say nothing. */
const MIN_FIELD_CHARS = 3;

function readable(value: unknown): value is string {
  return typeof value === 'string' && value.trim().length > 0 && !OPAQUE_HEAD.test(value);
}

/** A string the excerpt can quote whole, met at `depth`. */
interface Field {
  readonly text: string;
  readonly depth: number;
}

/** Whether `a` stands before `b`: shallower, then shorter, then by its text (never by where its key stood). */
function before(a: Field, b: Field | undefined): boolean {
  if (b === undefined) return true;
  if (a.depth !== b.depth) return a.depth < b.depth;
  if (a.text.length !== b.text.length) return a.text.length < b.text.length;
  return a.text < b.text;
}

/**
 * The excerpt's text: among the strings of a bounded walk of `value` that it can quote whole, the
 * shallowest and shortest (a title, a path, a service, a status: what a tool names its result by,
 * where a long body would be cut), else the first readable string met, cut later; '' when there is
 * none. An object's keys are visited sorted (`boundedSortedKeys`) and the choice does not depend on
 * their order, so a result a database gives back with its keys reordered gives the same excerpt;
 * base64 is passed over (an image's `data`).
 */
function excerptText(value: unknown): string {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  let first: string | undefined;
  let best: Field | undefined;
  for (let visited = 0; stack.length > 0 && visited < PREVIEW_NODES; visited++) {
    const { value: next, depth } = stack.pop() as { value: unknown; depth: number };
    if (readable(next)) {
      first ??= next;
      const length = next.trim().length;
      const field = { text: next, depth };
      if (length >= MIN_FIELD_CHARS && length <= PREVIEW_CHARS && before(field, best)) best = field;
    }
    if (typeof next !== 'object' || next === null) continue;
    const children = Array.isArray(next)
      ? next.slice(0, PREVIEW_NODES)
      : boundedSortedKeys(next, PREVIEW_NODES).map((key) => (next as Record<string, unknown>)[key]);
    for (let i = children.length - 1; i >= 0; i--) stack.push({ value: children[i], depth: depth + 1 });
  }
  return best?.text ?? first ?? '';
}

/**
 * How a masked result of tool `name` is read back: never by calling again a tool that may have a side
 * effect. With a recall tool, the words of a placeholder from before (every placeholder is sent on every
 * later call, so its length is paid many times over); a re-run is offered only for a read-only tool.
 */
function recoveryText(name: string, hint: MaskHint): string {
  const recall = hint.recallToolName;
  const readOnly = hint.isReadOnly?.(name) === true;
  if (recall) return `call ${recall} with words from it${readOnly ? `, or ${name} again,` : ''} to read it again`;
  return readOnly
    ? `call ${name} again with the same arguments to read it again`
    : `not recoverable; calling ${name} again could repeat its effect`;
}

/**
 * The placeholder of one result, built from the result as a database stores it (`storedForm`): the
 * process that ran the tool holds the live object (a `Date`, a value with `toJSON`, keys whose value is
 * `undefined`), every other one reads its JSON back, and both must write the same bytes. Its size is the
 * characters of that JSON text, which do not depend on the order of its keys: a token count of the text
 * does (a tokenizer's merges cross the keys' boundaries), so a replica that measured the result after a
 * reload from PostgreSQL stated another figure, and the request's prefix changed at each switch of replica.
 */
function placeholder(name: string, response: Record<string, unknown>, hint: MaskHint): Record<string, unknown> {
  const stored = storedForm(response);
  // Only the head is read: the first string can be the whole result (a 1 MB log).
  const text = stored === undefined ? '' : excerptText(stored.value);
  const preview = truncateEnd(safeHead(text, PREVIEW_CHARS * 4).replace(/\s+/g, ' '), PREVIEW_CHARS);
  const identifiers = (stored === undefined ? [] : resultIdentifiers(stored.value)).filter(
    (each) => !preview.includes(each.replace(/^.*?=/, '').replace(/^"|"$/g, '')),
  );
  const kept = identifiers.length > 0 ? ` Ids: ${identifiers.join(', ')}.` : '';
  const excerpt = preview.length > 0 ? ` Excerpt: ${preview}` : '';
  const size = stored === undefined ? 'not serialisable' : `${stored.text.length} characters`;
  return {
    [MASKED_RESULT_KEY]: `Result of tool '${name}' (${size}) elided to save context; ${recoveryText(name, hint)}.${kept}${excerpt}`,
  };
}

/**
 * A placeholder's response: its one key and a text. A tool result that merely carries the key among others is masked
 * like any other (the eighteenth outside trial: one with the key was never masked).
 */
function isPlaceholderResponse(response: Record<string, unknown>): boolean {
  const keys = Object.keys(response);
  return keys.length === 1 && keys[0] === MASKED_RESULT_KEY && typeof response[MASKED_RESULT_KEY] === 'string';
}

/** Whether masking may change `content` of `tokens` (measured): a tool result of at least `MIN_MASKED_TOKENS`. */
function maskable(content: Content, tokens: number): boolean {
  return tokens >= MIN_MASKED_TOKENS && hasFunctionResponse(content);
}

/**
 * The content with its tool results replaced by placeholders when it holds at least
 * `MIN_MASKED_TOKENS` (`tokens`, its measured count); the same object when nothing changes.
 */
export function maskContent(content: Content, hint: MaskHint, tokens: number): Content {
  if (!maskable(content, tokens)) return content;
  const parts = content.parts ?? [];
  const masked = parts.map((part): Part => {
    const response = part.functionResponse;
    if (!response?.response || isPlaceholderResponse(response.response)) return part;
    return {
      ...part,
      functionResponse: {
        ...response,
        response: placeholder(response.name ?? 'unknown', response.response, hint),
      },
    };
  });
  return masked.some((part, i) => part !== parts[i]) ? { ...content, parts: masked } : content;
}

/** `contents` with the tool results in [from, upTo) masked; contents outside the range are the same objects. */
export function applyMask(
  contents: readonly Content[],
  tokens: readonly number[],
  from: number,
  upTo: number,
  hint: MaskHint,
): Content[] {
  if (upTo <= from) return contents.slice();
  return contents.map((content, i) => (i >= from && i < upTo ? maskContent(content, hint, tokens[i] ?? 0) : content));
}
