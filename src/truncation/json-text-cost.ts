/**
 * Byte cost of text once it is inside a JSON document, as UTF-8.
 *
 * A tool result reaches the model (and the session store) as JSON, so the byte
 * limit is measured on `JSON.stringify` output: a newline costs 2 bytes (`\n`),
 * a control character 6 (`\u0001`), an emoji 4, a CJK character 3. The walkers
 * let a cut stop at a byte budget without serialising a 2 MB string per step,
 * and they never split a surrogate pair.
 */

/** Texts up to this many characters are walked by `jsonStringBytes` rather than serialised. */
const WALKED_CHARS = 256;

/**
 * UTF-8 bytes of `JSON.stringify(text)`, quotes included. A short text is walked: no copy, no
 * garbage, for the 20,000 short parts of a pasted table; a long one goes through V8's serialiser.
 */
export function jsonStringBytes(text: string): number {
  if (text.length > WALKED_CHARS) return Buffer.byteLength(JSON.stringify(text), 'utf8');
  return 2 + walkForward(text, 0, text.length, Number.POSITIVE_INFINITY).cost;
}

/** UTF-8 bytes of `JSON.stringify(value)`; `undefined` when the value cannot be serialised. */
export function jsonBytes(value: unknown): number | undefined {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : Buffer.byteLength(text, 'utf8');
}

/** UTF-8 bytes of `text` (without JSON escaping). */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** JSON bytes of a surrogate pair: the only unit that spans two code units (and the only one of 4 bytes). */
const PAIR_BYTES = 4;

/** JSON bytes of the code unit at `index`; a surrogate pair counts at its high half. */
function unitBytes(text: string, index: number): number {
  const code = text.charCodeAt(index);
  if (code < 0x20) {
    // \b \t \n \f \r have two-character escapes; other controls become \u00XX.
    return code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d ? 2 : 6;
  }
  if (code === 0x22 || code === 0x5c) return 2;
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  if (code >= 0xd800 && code <= 0xdbff) {
    const next = text.charCodeAt(index + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return PAIR_BYTES;
    return 6; // Lone surrogate: JSON.stringify escapes it.
  }
  if (code >= 0xdc00 && code <= 0xdfff) return 6;
  return 3;
}

/** How far a walk got: `index` is where it stopped, `cost` the JSON bytes covered. */
export interface Walk {
  readonly index: number;
  readonly cost: number;
}

/**
 * Walks forward from `from` towards `to` while the JSON cost stays within
 * `maxCost`. The stop index never falls inside a surrogate pair.
 */
export function walkForward(text: string, from: number, to: number, maxCost: number): Walk {
  let index = from;
  let cost = 0;
  while (index < to) {
    const bytes = unitBytes(text, index);
    const width = bytes === PAIR_BYTES ? 2 : 1;
    if (cost + bytes > maxCost || index + width > to) break;
    cost += bytes;
    index += width;
  }
  return { index, cost };
}

/**
 * Walks backward from `from` (exclusive end) towards `to` while the JSON cost
 * stays within `maxCost`. The start index never falls inside a surrogate pair.
 */
export function walkBackward(text: string, from: number, to: number, maxCost: number): Walk {
  let index = from;
  let cost = 0;
  while (index > to) {
    let start = index - 1;
    const code = text.charCodeAt(start);
    if (code >= 0xdc00 && code <= 0xdfff && start - 1 >= to) {
      const previous = text.charCodeAt(start - 1);
      if (previous >= 0xd800 && previous <= 0xdbff) start -= 1;
    }
    // A low surrogate reached alone from the right is lone only if no high surrogate precedes it.
    const bytes = start === index - 1 ? unitBytes(text, start) : PAIR_BYTES;
    if (cost + bytes > maxCost) break;
    cost += bytes;
    index = start;
  }
  return { index, cost };
}
