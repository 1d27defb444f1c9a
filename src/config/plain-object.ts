/**
 * Whether untrusted input (options from plain JavaScript or JSON, records read back from session
 * state) is a JSON object: an object that is neither null nor an array.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
