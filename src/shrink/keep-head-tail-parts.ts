/**
 * Head and tail of a content made of many parts (a paste split into 20,000
 * text parts): each part may be small, so no part-by-part cut can make the
 * content smaller. The first and last parts are kept within a byte budget and
 * one marker part stands for the ones left out. Function calls and responses
 * are never dropped (each pairs with one in another content), nor parts the
 * model signed; they stay in place and count against the budget. Linear in
 * the number of parts.
 */
import type { Part } from '@google/genai';

/** A content with more parts than this may lose parts from its middle. */
export const MANY_PARTS = 16;

/** The marker part that replaces the parts left out. */
export function omittedPartsMarker(omitted: number, total: number): Part {
  return { text: `[... omitted ${omitted} of ${total} parts ...]` };
}

/** A call or a response: never dropped, since each pairs with one in another content. */
export function isPaired(part: Part): boolean {
  return part.functionCall !== undefined || part.functionResponse !== undefined;
}

/**
 * A part never dropped: a call or a response, or a part the model signed (a Gemini thought signature, which the
 * API reads back with the part; review 23: a signed text in the middle of a many-part step went with the middle).
 */
export function isKeptInPlace(part: Part): boolean {
  return isPaired(part) || part.thoughtSignature !== undefined;
}

/**
 * Parts kept: those `keptInPlace` names (and every call, response or signed part) where they
 * are, counted against `maxBytes`; of the others, whole parts from the head while
 * they fit half of what is left, from the tail while they fit the rest. `sizes[i]` is the size of `parts[i]`
 * in the unit of `maxBytes`. Returns `parts` itself when nothing is left out.
 */
export function keepHeadTailParts(
  parts: readonly Part[],
  sizes: readonly number[],
  maxBytes: number,
  keptInPlace: (index: number) => boolean = () => false,
): readonly Part[] {
  const inPlace = (index: number): boolean => isKeptInPlace(parts[index]!) || keptInPlace(index);
  let fixed = 0;
  for (let i = 0; i < parts.length; i++) if (inPlace(i)) fixed += sizes[i] ?? 0;
  const room = Math.max(0, maxBytes - fixed);
  const keep = new Uint8Array(parts.length);
  let used = 0;
  let head = 0;
  for (; head < parts.length; head++) {
    if (inPlace(head)) continue;
    const size = sizes[head] ?? 0;
    if (used + size > room / 2) break;
    used += size;
    keep[head] = 1;
  }
  for (let tail = parts.length - 1; tail > head; tail--) {
    if (inPlace(tail)) continue;
    const size = sizes[tail] ?? 0;
    if (used + size > room) break;
    used += size;
    keep[tail] = 1;
  }
  const kept: Part[] = [];
  let omitted = 0;
  let markerAt = -1;
  for (let i = 0; i < parts.length; i++) {
    if (keep[i] === 1 || inPlace(i)) {
      kept.push(parts[i]!);
    } else {
      if (markerAt < 0) markerAt = kept.length;
      omitted += 1;
    }
  }
  if (omitted === 0) return parts;
  kept.splice(markerAt, 0, omittedPartsMarker(omitted, parts.length));
  return kept;
}
