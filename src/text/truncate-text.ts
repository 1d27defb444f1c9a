/**
 * Unicode-safe text cutting. A head or tail cut lands on a grapheme boundary:
 * it never splits a surrogate pair (so the result is always valid UTF-8 when
 * encoded), a ZWJ emoji sequence, a flag, or a letter and its combining marks
 * (see src/text/grapheme-cut.ts), so every truncation boundary keeps
 * whole characters.
 */
import { graphemeBoundaryAfter, graphemeBoundaryBefore } from './grapheme-cut.js';

/**
 * The first `maxChars` UTF-16 units of `text` at most, cut at a grapheme
 * boundary: never inside a surrogate pair, a ZWJ sequence, a flag or a letter
 * with its combining marks (so the kept text shows no broken character).
 */
export function safeHead(text: string, maxChars: number): string {
  if (maxChars >= text.length) return text;
  return text.slice(0, graphemeBoundaryBefore(text, Math.max(0, maxChars), 0));
}

/** The last `maxChars` UTF-16 units of `text` at most, cut at a grapheme boundary (see `safeHead`). */
export function safeTail(text: string, maxChars: number): string {
  if (maxChars <= 0) return '';
  if (maxChars >= text.length) return text;
  return text.slice(graphemeBoundaryAfter(text, text.length - maxChars, text.length));
}

/**
 * Keeps the head and the tail of `text` within `maxChars`, with a marker in
 * between that says how much was left out. Returns `text` unchanged when it fits,
 * and just its head (with an ellipsis) when not even the marker fits.
 */
export function truncateMiddle(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = middleCut(text, maxChars);
  if (!cut) return truncateEnd(text, maxChars);
  return cut.head + middleMarker(text.length - cut.head.length - cut.tail.length, text.length) + cut.tail;
}

const middleMarker = (omitted: number, total: number): string =>
  `\n[... omitted ${omitted} of ${total} characters ...]\n`;

/**
 * The head and the tail `truncateMiddle` keeps of a `text` longer than `maxChars`; undefined when it keeps it whole,
 * or only a head (not even the marker fits).
 */
export function middleCut(
  text: string,
  maxChars: number,
): { readonly head: string; readonly tail: string } | undefined {
  if (text.length <= maxChars) return undefined;
  // The count is known only after the cut; reserve room for the widest it can be.
  const widest = middleMarker(text.length, text.length).length;
  if (maxChars < widest) return undefined;
  const room = maxChars - widest;
  return { head: safeHead(text, Math.ceil(room * 0.6)), tail: safeTail(text, room - Math.ceil(room * 0.6)) };
}

/** Cuts `text` to at most `maxChars`, ending with an ellipsis when it was cut. */
export function truncateEnd(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  if (maxChars <= 1) return safeHead(text, maxChars);
  return `${safeHead(text, maxChars - 1)}…`;
}

/**
 * The first UTF-8 bytes of `text` within `maxBytes`, cut at a grapheme boundary like every other
 * cut, and at the last line break when that keeps most of the room.
 */
export function utf8Head(text: string, maxBytes: number): string {
  let bytes = 0;
  let index = 0;
  while (index < text.length) {
    const code = text.codePointAt(index) ?? 0;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (bytes + size > maxBytes) break;
    bytes += size;
    index += code > 0xffff ? 2 : 1;
  }
  // Moving back to a grapheme boundary keeps "e" with its accent; it only ever keeps less.
  index = graphemeBoundaryBefore(text, index, 0);
  // Cut at the last line break when it keeps most of the room: a whole last line reads better.
  const lineBreak = text.lastIndexOf('\n', index - 1);
  return lineBreak > index * 0.8 ? text.slice(0, lineBreak) : text.slice(0, index);
}
