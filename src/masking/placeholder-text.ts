/**
 * The words of a masked result's placeholder: what was elided (tool, size, its identifiers, an excerpt) and how to
 * get it back. A pure function of the result as a database stores it and of the hint, so every replica and every
 * call writes the same bytes (masking/mask-observations.ts); and how a placeholder already written is known, so
 * none is masked twice.
 */
import { storedForm } from '../estimate/json-text.js';
import { safeHead, truncateEnd } from '../text/truncate-text.js';
import { boundedSortedKeys } from './bounded-keys.js';
import { resultIdentifiers } from './result-identifiers.js';
import { OFFLOAD_HANDLE_KEY } from '../offload/artifact-handle.js';

/** The key of a masked function response, so a masked result is recognisable (and never masked twice). */
export const MASKED_RESULT_KEY = 'context_guard_masked';
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
 * How another agent's masked result, or the output of a code run, is read back: by the recall tool from its event;
 * never by calling the other agent's tool, which this agent may not have, or by running the code again.
 */
function recallOnlyText(hint: MaskHint): string {
  const recall = hint.recallToolName;
  return recall ? `call ${recall} with words from it to read it again` : 'not recoverable by this agent';
}

/** A result to mask: what it is, the result as stored (`undefined` when it cannot be serialised) and its size. */
interface ElidedResult {
  /** What the placeholder calls it: "Result of tool 'x'", "Output of the code run". */
  readonly label: string;
  /**
   * The tool this agent called for it, whose declared read-only verdict may offer a re-run; absent for another
   * agent's result (content/foreign-result.ts) and a code run's output, read back by the recall tool only.
   */
  readonly tool?: string | undefined;
  readonly value: unknown;
  /** Characters of the result's stored JSON text; `undefined` when it cannot be serialised. */
  readonly chars: number | undefined;
}

/**
 * The artifact an offloaded result is stored whole as (offload/artifact-handle.ts), named whole: it is the key to the
 * data. As the excerpt's first string it was cut at 120 characters and a recall by that name found nothing (the
 * thirtieth outside trial); the excerpt is then taken from the rest of the result.
 */
function offloaded(value: unknown): { readonly rest: unknown; readonly name: string } | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { [OFFLOAD_HANDLE_KEY]: handle, ...rest } = value as Record<string, unknown>;
  const name = typeof handle === 'object' && handle !== null ? (handle as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? { rest, name } : undefined;
}

/** Where the stored whole is: for the agent's recall tool, or, without one, for the application only (trial 42). */
function storedNote(name: string | undefined, hint: MaskHint): string {
  if (name === undefined) return '';
  return hint.recallToolName
    ? ` Stored whole as artifact '${name}'.`
    : ` Stored whole as artifact '${name}' for the application; this agent has no tool to read it.`;
}

/** The placeholder's text for `result`. */
function placeholderText(result: ElidedResult, hint: MaskHint): string {
  const stored = offloaded(result.value);
  const value = stored ? stored.rest : result.value;
  // Only the head is read: the first string can be the whole result (a 1 MB log).
  const text = value === undefined ? '' : excerptText(value);
  const preview = truncateEnd(safeHead(text, PREVIEW_CHARS * 4).replace(/\s+/g, ' '), PREVIEW_CHARS);
  const identifiers = (value === undefined ? [] : resultIdentifiers(value)).filter(
    (each) => !preview.includes(each.replace(/^.*?=/, '').replace(/^"|"$/g, '')),
  );
  const kept = identifiers.length > 0 ? ` Ids: ${identifiers.join(', ')}.` : '';
  const excerpt = preview.length > 0 ? ` Excerpt: ${preview}` : '';
  const size = result.chars === undefined ? 'not serialisable' : `${result.chars} characters`;
  const recovery = result.tool === undefined ? recallOnlyText(hint) : recoveryText(result.tool, hint);
  return `${result.label} (${size}) elided to save context; ${recovery}.${storedNote(stored?.name, hint)}${kept}${excerpt}`;
}

/**
 * The placeholder of one result, built from the result as a database stores it (`storedForm`): the
 * process that ran the tool holds the live object (a `Date`, a value with `toJSON`, keys whose value is
 * `undefined`), every other one reads its JSON back, and both must write the same bytes. Its size is the
 * characters of that JSON text, which do not depend on the order of its keys: a token count of the text
 * does (a tokenizer's merges cross the keys' boundaries), so a replica that measured the result after a
 * reload from PostgreSQL stated another figure, and the request's prefix changed at each switch of replica.
 */
export function placeholder(name: string, response: Record<string, unknown>, hint: MaskHint): Record<string, unknown> {
  const stored = storedForm(response);
  const elided = { label: `Result of tool '${name}'`, tool: name, value: stored?.value, chars: stored?.text.length };
  return { [MASKED_RESULT_KEY]: placeholderText(elided, hint) };
}

/**
 * The placeholder of another agent's result, as ADK would render that agent's masked result: the same JSON object
 * a function response's placeholder is. `text` is the result as ADK wrote it (JSON, or a string result as it was);
 * its length is its size, which does not depend on the order of its keys either.
 */
export function foreignPlaceholder(name: string, text: string, hint: MaskHint): string {
  let value: unknown = text;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    // A string result, or one ADK could not serialise (`String(obj)`): quoted as text.
  }
  const elided = { label: `Result of tool '${name}'`, value, chars: text.length };
  return JSON.stringify({ [MASKED_RESULT_KEY]: placeholderText(elided, hint) });
}

/** What a code run's masked output is called: an output already masked is known by these words. */
const CODE_OUTPUT_LABEL = 'Output of the code run';

/** The placeholder of a code run's output (content/code-output.ts): its size, an excerpt, read back by recall only. */
export function codeOutputPlaceholder(output: string, hint: MaskHint): string {
  return placeholderText({ label: CODE_OUTPUT_LABEL, value: output, chars: output.length }, hint);
}

/**
 * A placeholder's response: its one key and a text. A tool result that merely carries the key among others is masked
 * like any other (the eighteenth outside trial: one with the key was never masked).
 */
export function isPlaceholderResponse(response: Record<string, unknown>): boolean {
  const keys = Object.keys(response);
  return keys.length === 1 && keys[0] === MASKED_RESULT_KEY && typeof response[MASKED_RESULT_KEY] === 'string';
}

/** A result's text that is already a placeholder, as `foreignPlaceholder` writes one: exactly its one key. */
export function isForeignPlaceholder(text: string): boolean {
  if (!text.startsWith(`{"${MASKED_RESULT_KEY}":`)) return false;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && isPlaceholderResponse(value as Record<string, unknown>);
  } catch {
    return false;
  }
}

/** An output that is already a placeholder, as `codeOutputPlaceholder` writes one (a program may print those words). */
const CODE_OUTPUT_PLACEHOLDER = new RegExp(
  `^${CODE_OUTPUT_LABEL} \\((\\d+ characters|not serialisable)\\) elided to save context; `,
);

export function isCodeOutputPlaceholder(output: string): boolean {
  return output.length < 2_000 && CODE_OUTPUT_PLACEHOLDER.test(output);
}
