/**
 * UTF-16-safe text cutting. A cut never splits a surrogate pair, so emoji and
 * other astral characters survive every truncation boundary, and the result is
 * always valid UTF-8 when encoded.
 */

/** Index at or before `index` that does not fall inside a surrogate pair. */
export function safeCutIndex(text: string, index: number): number {
  if (index <= 0) return 0;
  if (index >= text.length) return text.length;
  const code = text.charCodeAt(index);
  // A low surrogate at the cut means the pair started one unit earlier.
  if (code >= 0xdc00 && code <= 0xdfff) return index - 1;
  return index;
}

/** The first `maxChars` UTF-16 units of `text`, without splitting a pair. */
export function safeHead(text: string, maxChars: number): string {
  return text.slice(0, safeCutIndex(text, maxChars));
}

/** The last `maxChars` UTF-16 units of `text`, without splitting a pair. */
export function safeTail(text: string, maxChars: number): string {
  if (maxChars <= 0) return '';
  if (maxChars >= text.length) return text;
  let start = text.length - maxChars;
  const code = text.charCodeAt(start);
  if (code >= 0xdc00 && code <= 0xdfff) start += 1;
  return text.slice(start);
}

/**
 * Keeps the head and the tail of `text` within `maxChars`, with a marker in
 * between that says how much was left out. Returns `text` unchanged when it fits,
 * and just its head (with an ellipsis) when not even the marker fits.
 */
export function truncateMiddle(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const marker = (omitted: number): string => `\n[... omitted ${omitted} of ${text.length} characters ...]\n`;
  // The count is known only after the cut; reserve room for the widest it can be.
  const widest = marker(text.length).length;
  if (maxChars < widest) return truncateEnd(text, maxChars);
  const room = maxChars - widest;
  const head = safeHead(text, Math.ceil(room * 0.6));
  const tail = safeTail(text, room - Math.ceil(room * 0.6));
  return head + marker(text.length - head.length - tail.length) + tail;
}

/** Cuts `text` to at most `maxChars`, ending with an ellipsis when it was cut. */
export function truncateEnd(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  if (maxChars <= 1) return safeHead(text, maxChars);
  return `${safeHead(text, maxChars - 1)}…`;
}
