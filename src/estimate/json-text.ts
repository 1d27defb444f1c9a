/**
 * JSON text of tool arguments and results, serialised once per measure.
 *
 * A 1 MB tool result is the one input whose cost is in walking it, not in
 * counting it: the parts of one content's estimate may each need its JSON
 * text. A `JsonTexts` map made for one synchronous measure lets them share
 * what was serialised; it is never kept across calls, so an object edited in
 * place later cannot be counted from stale text.
 */

/** JSON texts already made during one measure, by the object they serialise. */
export type JsonTexts = Map<object, string>;

/** What `safeJson` returns for a value JSON cannot serialise. */
const UNSERIALISABLE = '[unserialisable]';

/** `JSON.stringify`'s text: `undefined` for a value it leaves out, `null` for one it cannot serialise (cycles, BigInt). */
function jsonOrNull(value: unknown): string | undefined | null {
  try {
    return JSON.stringify(value);
  } catch {
    return null;
  }
}

/** JSON text of a value, or a placeholder when it cannot be serialised (cycles, BigInt). */
export function safeJson(value: unknown): string {
  const text = jsonOrNull(value);
  return text === null ? UNSERIALISABLE : (text ?? '');
}

/** `safeJson(value)`, made once per object within one measure when `texts` is given. */
export function jsonTextOf(value: unknown, texts?: JsonTexts): string {
  if (texts === undefined || typeof value !== 'object' || value === null) return safeJson(value);
  const known = texts.get(value);
  if (known !== undefined) return known;
  const text = safeJson(value);
  texts.set(value, text);
  return text;
}

/** A value as a JSON store keeps it: its JSON text, and that text read back. */
interface StoredForm {
  readonly text: string;
  readonly value: unknown;
}

/**
 * `value` as a database gives it back after storing its JSON text: a `Date` or anything with `toJSON` as
 * what that returns, keys whose value is `undefined` or a function gone, a `Buffer` as `{ type, data }`.
 * What is built from the stored form is the same in the process that holds the live object and in one
 * that read it back. `undefined` when the value cannot be serialised (cycles, BigInt).
 */
export function storedForm(value: unknown): StoredForm | undefined {
  const text = jsonOrNull(value);
  return typeof text === 'string' ? { text, value: JSON.parse(text) as unknown } : undefined;
}
