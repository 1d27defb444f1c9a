/**
 * A call's own copy of a kept placeholder, built from its fields. Every call gets fresh objects for
 * every placeholder it sends (a callback that edits the request in place must not reach the next
 * call), and with hundreds of placeholders that copy is paid per masked content on every call. A
 * generic copy reads the kept content's five objects (content, parts, part, function response,
 * response), cold by then after ADK's deep copy of the history; a placeholder of the usual shape
 * is kept as its four fields on one record and rebuilt with fixed object literals: the same keys
 * in the same order, the same values, new objects.
 */
import type { Content, Part } from '@google/genai';
import { MASKED_RESULT_KEY } from './placeholder-text.js';
import { sameOutputKind } from '../content/code-output.js';

/** The fields of a placeholder of the usual shape: `{ role, parts: [{ functionResponse: { id, name, response } }] }`. */
export interface FlatPlaceholder {
  readonly role: Content['role'];
  readonly id: string | undefined;
  readonly name: string | undefined;
  /** The response's only value, at `MASKED_RESULT_KEY`. */
  readonly text: unknown;
}

/** Whether `value` is a plain object with exactly `keys`, in that order, and no symbol keys. */
function hasKeys(value: unknown, keys: readonly string[]): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  if (Object.getPrototypeOf(value) !== Object.prototype || Object.getOwnPropertySymbols(value).length > 0) return false;
  const own = Object.keys(value);
  return own.length === keys.length && own.every((key, i) => key === keys[i]);
}

function optionalString(value: unknown): value is string | undefined {
  return value === undefined || typeof value === 'string';
}

/** The fields of `masked` when it has the usual shape exactly (a copy from them is the same as a spread copy), else `undefined`. */
export function flatPlaceholder(masked: Content): FlatPlaceholder | undefined {
  const { role } = masked;
  const parts: unknown = masked.parts;
  if (!hasKeys(masked, ['role', 'parts']) || !Array.isArray(parts) || parts.length !== 1) return undefined;
  const part: unknown = parts[0];
  if (!hasKeys(part, ['functionResponse'])) return undefined;
  const response: unknown = part.functionResponse;
  if (!hasKeys(response, ['id', 'name', 'response']) || !hasKeys(response.response, [MASKED_RESULT_KEY]))
    return undefined;
  const { id, name } = response;
  if (!optionalString(id) || !optionalString(name)) return undefined;
  return { role, id, name, text: response.response[MASKED_RESULT_KEY] };
}

/** Fresh objects for `flat`, key for key what a spread copy of the placeholder it was read from gives. */
export function copyFlat(flat: FlatPlaceholder): Content {
  return copyFlatFields(flat.role, flat.id, flat.name, flat.text);
}

/** `copyFlat` of the fields themselves (kept-placeholders.ts keeps them by column). */
export function copyFlatFields(
  role: Content['role'],
  id: string | undefined,
  name: string | undefined,
  text: unknown,
): Content {
  return {
    role,
    // The key written out (a computed key builds the object at run time); `satisfies` ties it to MASKED_RESULT_KEY.
    parts: [
      {
        functionResponse: {
          id,
          name,
          response: { context_guard_masked: text } satisfies Record<typeof MASKED_RESULT_KEY, unknown>,
        },
      },
    ],
  };
}

/**
 * A copy of `content` down to its placeholders, every object a part holds copied (a code run's `executableCode`,
 * its `codeExecutionResult`, a call's arguments): what the cache keeps and what each call gets of another shape.
 * Review 20 found a callback appending to the code of a masked run in place: the kept copy shared that object, and
 * the code grew by one marker on every call.
 */
export function copyMasked(content: Content): Content {
  const parts = (content.parts ?? []).map((part): Part => {
    const response = part.functionResponse;
    if (response) return { ...part, functionResponse: { ...response, response: { ...response.response } } };
    const copy: Record<string, unknown> = { ...part };
    for (const [key, value] of Object.entries(copy))
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) copy[key] = { ...value };
    const call = part.functionCall;
    if (call?.args) copy['functionCall'] = { ...call, args: { ...call.args } };
    return copy;
  });
  return sameOutputKind(content, { ...content, parts });
}
