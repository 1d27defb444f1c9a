/**
 * Long arrays of numbers in a tool result (a Node Buffer serialised as `{ type: 'Buffer', data:
 * [137, 80, …] }`, an embedding, a byte array) say nothing a model can read, yet would take their
 * whole length of a cut's budget. When a result is cut they keep their first values and a marker
 * with the count, as masking previews skip base64 heads (OPAQUE_HEAD in src/masking), so the
 * readable text gets the budget.
 */

/**
 * Arrays of more numbers than this are shortened when a result is cut: an embedding has 256 or more, a Buffer of any
 * file thousands, while a list of ids or prices a model reads is shorter (review 13: 40 order ids, cut to 8 when the
 * limit was 32) and is cut like any array, head and tail kept.
 */
const NUMBER_RUN_LIMIT = 256;

/** Leading numbers kept of a shortened array. */
const NUMBERS_KEPT = 8;

/** Whether `values` is an array of numbers long enough to shorten. */
export function isLongNumberRun(values: readonly unknown[]): values is readonly number[] {
  return values.length > NUMBER_RUN_LIMIT && values.every((value) => typeof value === 'number');
}

/** The first `NUMBERS_KEPT` values, then `"[... omitted X of Y numbers ...]"`. */
export function shortenNumbers(values: readonly number[]): Array<number | string> {
  const omitted = values.length - NUMBERS_KEPT;
  return [...values.slice(0, NUMBERS_KEPT), `[... omitted ${omitted} of ${values.length} numbers ...]`];
}
