/**
 * Head-and-tail cut of one string, by lines first and then by bytes.
 *
 * - Over `maxLines` lines: keep the first `headLines` and the last `tailLines`
 *   lines around the marker `[... omitted X of Y lines ...]` (seed 002, layer 1).
 * - Still over the byte budget (measured as JSON, because that is how the
 *   model receives it): keep as many whole lines from each end as fit. When
 *   not even one line fits on a side (a single 2 MB line), cut inside that line
 *   at a grapheme boundary; the marker then counts bytes,
 *   `[... omitted X of Y bytes ...]`, because a line count would say nothing.
 */
import { graphemeBoundaryAfter, graphemeBoundaryBefore } from '../text/grapheme-cut.js';
import { jsonStringBytes, utf8Bytes, walkBackward, walkForward, type Walk } from './json-text-cost.js';

/** The line rule of a cut: what counts as too many lines and what is kept. */
export interface LineLimits {
  readonly maxLines: number;
  readonly headLines: number;
  readonly tailLines: number;
}

/** The outcome of `cutString`: the text to send and whether anything was left out. */
interface StringCut {
  readonly text: string;
  readonly cut: boolean;
}

/** The marker for a cut at line boundaries. */
export function linesMarker(omitted: number, total: number): string {
  return `[... omitted ${omitted} of ${total} lines ...]`;
}

/** The marker for a cut inside a line (UTF-8 bytes of the original string). */
function bytesMarker(omitted: number, total: number): string {
  return `[... omitted ${omitted} of ${total} bytes ...]`;
}

/** Lines of `text`: line breaks plus one (`''` is one empty line). */
export function countLines(text: string): number {
  let lines = 1;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) lines += 1;
  return lines;
}

/** Index of the `n`-th (1-based) line break, or `text.length` when there are fewer. */
function nthLineBreak(text: string, n: number): number {
  let index = -1;
  for (let found = 0; found < n; found += 1) {
    index = text.indexOf('\n', index + 1);
    if (index === -1) return text.length;
  }
  return index;
}

interface Side {
  /** Kept range [start, end) of the original text. */
  readonly start: number;
  readonly end: number;
  readonly lines: number;
  readonly partial: boolean;
  readonly cost: number;
}

/** JSON bytes of the two-character `\n` escape that joins kept lines. */
const BREAK_COST = 2;

/**
 * After whole lines, part of the next (too long) line is still worth showing
 * when a quarter of the side's room is left: a minified JSON line in a log
 * should not leave that room empty.
 */
function worthPartial(room: number, budget: number): boolean {
  return room >= Math.max(64, budget / 4);
}

/** One way of picking lines: forward from the start of the head, or backward from the end of the tail. */
interface Direction {
  /** The far end of the line at `position`, never past `limit`. */
  readonly lineBound: (text: string, position: number, limit: number) => number;
  readonly walk: (text: string, from: number, to: number, maxCost: number) => Walk;
  /** The grapheme boundary at or short of `index`, never behind `origin`. */
  readonly boundary: (text: string, index: number, origin: number) => number;
  /** From a line's far end to the first position of the next line. */
  readonly step: 1 | -1;
}

const FORWARD: Direction = {
  lineBound: (text, position, limit) => {
    const lineBreak = text.indexOf('\n', position);
    return lineBreak === -1 || lineBreak >= limit ? limit : lineBreak;
  },
  walk: walkForward,
  boundary: graphemeBoundaryBefore,
  step: 1,
};

const BACKWARD: Direction = {
  lineBound: (text, position, limit) => {
    const lineBreak = position > limit ? text.lastIndexOf('\n', position - 1) : -1;
    return lineBreak === -1 || lineBreak < limit ? limit : lineBreak + 1;
  },
  walk: walkBackward,
  boundary: graphemeBoundaryAfter,
  step: -1,
};

/** What one side keeps: from its origin up to `reached`. */
type Picked = Omit<Side, 'start' | 'end'> & { readonly reached: number };

/** Whole lines from `origin` while they fit in `budget`; then part of the next line when much room is left. */
function pickLines(text: string, origin: number, limit: number, budget: number, direction: Direction): Picked {
  let position = origin;
  let cost = 0;
  let lines = 0;
  let reached = origin;
  for (;;) {
    const bound = direction.lineBound(text, position, limit);
    const separator = lines > 0 ? BREAK_COST : 0;
    const room = budget - cost - separator;
    const walk = room >= 0 ? direction.walk(text, position, bound, room) : { index: position, cost: 0 };
    if (room >= 0 && walk.index === bound) {
      cost += separator + walk.cost;
      lines += 1;
      reached = bound;
      if (bound === limit) break;
      position = bound + direction.step;
      continue;
    }
    if (lines === 0 || worthPartial(room, budget)) {
      const cut = direction.boundary(text, walk.index, position);
      if (cut === position && lines > 0) break;
      const kept = direction.walk(text, origin, cut, Number.POSITIVE_INFINITY);
      return { reached: cut, lines, partial: true, cost: kept.cost };
    }
    break;
  }
  return { reached, lines, partial: false, cost };
}

/** Whole lines from `start` while they fit in `budget`; then part of the next line when much room is left. */
function pickHead(text: string, start: number, limit: number, budget: number): Side {
  const { reached, ...picked } = pickLines(text, start, limit, budget, FORWARD);
  return { start, end: reached, ...picked };
}

/** Whole lines back from `end` while they fit in `budget`; then part of the previous line when much room is left. */
function pickTail(text: string, end: number, limit: number, budget: number): Side {
  const { reached, ...picked } = pickLines(text, end, limit, budget, BACKWARD);
  return { start: reached, end, ...picked };
}

/** A side that keeps nothing, placed at `at`. */
const emptySide = (at: number): Side => ({ start: at, end: at, lines: 0, partial: false, cost: 0 });

function join(text: string, head: Side, marker: string, tail: Side, keepHead: boolean, keepTail: boolean): string {
  const parts: string[] = [];
  if (keepHead && (head.lines > 0 || head.end > head.start)) parts.push(text.slice(head.start, head.end));
  parts.push(marker);
  if (keepTail && (tail.lines > 0 || tail.end > tail.start)) parts.push(text.slice(tail.start, tail.end));
  return parts.join('\n');
}

/**
 * Cuts `text` to its head and tail so that it has at most `limits.maxLines`
 * lines and its JSON encoding (quotes included) takes at most `budget` UTF-8
 * bytes. Pass `Number.POSITIVE_INFINITY` to apply the line rule alone.
 *
 * Never splits a surrogate pair or a grapheme cluster. When `budget` is too
 * small for the marker itself, the marker alone is returned.
 */
export function cutString(text: string, limits: LineLimits, budget: number): StringCut {
  const totalLines = countLines(text);
  const byLines = totalLines > limits.maxLines;
  // Without the line rule both sides draw from the whole text: its JSON size is measured once (a 2 MB text costs).
  const wholeBytes = byLines || budget === Number.POSITIVE_INFINITY ? undefined : jsonStringBytes(text);
  if (!byLines && (wholeBytes === undefined || wholeBytes <= budget)) return { text, cut: false };

  const regions = drawRegions(text, limits, totalLines, byLines);
  if (byLines) {
    const candidate = cutLinesOnly(text, limits, totalLines, regions);
    if (budget === Number.POSITIVE_INFINITY || jsonStringBytes(candidate) <= budget)
      return { text: candidate, cut: true };
  }

  const totalBytes = utf8Bytes(text);
  const room = budget - 2 - markerReserve(totalLines, totalBytes);
  if (room <= 0) return { text: bytesMarker(totalBytes, totalBytes), cut: true };

  const { keepHead, keepTail, headLimit, tailLimit } = regions;
  const headNeed = keepHead ? (byLines ? jsonStringBytes(text.slice(0, headLimit)) : (wholeBytes ?? 0)) - 2 : 0;
  const tailNeed = keepTail ? (byLines ? jsonStringBytes(text.slice(tailLimit)) : (wholeBytes ?? 0)) - 2 : 0;
  // Even split, and a side that needs less gives the rest to the other.
  let headShare = Math.min(headNeed, Math.ceil(room / 2));
  const tailShare = Math.min(tailNeed, room - headShare);
  headShare = Math.min(headNeed, room - tailShare);

  const head = keepHead ? pickHead(text, 0, headLimit, headShare) : emptySide(0);
  // The tail never reaches back into the head (possible only when both draw from the whole text).
  const tailFloor = Math.max(tailLimit, head.end);
  const tail = keepTail
    ? pickTail(text, text.length, tailFloor, Math.min(tailNeed, room - head.cost))
    : emptySide(text.length);

  const marker = cutMarker(text, head, tail, totalLines, totalBytes);
  return { text: join(text, head, marker, tail, keepHead, keepTail), cut: true };
}

/** Which sides are kept and the region each may draw from: the head and tail lines, or the whole text. */
interface Regions {
  keepHead: boolean;
  keepTail: boolean;
  /** The head draws from `[0, headLimit)`. */
  headLimit: number;
  /** The tail draws from `[tailLimit, text.length)`. */
  tailLimit: number;
}

function drawRegions(text: string, limits: LineLimits, totalLines: number, byLines: boolean): Regions {
  const keepHead = !byLines || limits.headLines > 0;
  const keepTail = !byLines || limits.tailLines > 0;
  const headLimit = byLines ? nthLineBreak(text, limits.headLines) : text.length;
  const tailLimit = byLines
    ? limits.tailLines > 0
      ? nthLineBreak(text, totalLines - limits.tailLines) + 1
      : text.length
    : 0;
  return { keepHead, keepTail, headLimit, tailLimit };
}

/** The text cut by the line rule alone: the whole head and tail lines around a lines marker. */
function cutLinesOnly(text: string, limits: LineLimits, totalLines: number, regions: Regions): string {
  const { keepHead, keepTail, headLimit, tailLimit } = regions;
  const head = keepHead ? { start: 0, end: headLimit, lines: limits.headLines, partial: false, cost: 0 } : emptySide(0);
  const tail = keepTail
    ? { start: tailLimit, end: text.length, lines: limits.tailLines, partial: false, cost: 0 }
    : emptySide(text.length);
  return join(text, head, linesMarker(totalLines - head.lines - tail.lines, totalLines), tail, keepHead, keepTail);
}

/** Room set aside for the longer marker with the widest numbers it can show, plus its two line breaks. */
function markerReserve(totalLines: number, totalBytes: number): number {
  return (
    Math.max(
      jsonStringBytes(linesMarker(totalLines, totalLines)),
      jsonStringBytes(bytesMarker(totalBytes, totalBytes)),
    ) -
    2 +
    2 * BREAK_COST
  );
}

/** A bytes marker when a side was cut inside a line, else a lines marker. */
function cutMarker(text: string, head: Side, tail: Side, totalLines: number, totalBytes: number): string {
  return head.partial || tail.partial
    ? bytesMarker(
        totalBytes - utf8Bytes(text.slice(head.start, head.end)) - utf8Bytes(text.slice(tail.start, tail.end)),
        totalBytes,
      )
    : linesMarker(totalLines - head.lines - tail.lines, totalLines);
}
