/**
 * Moves a cut to a grapheme-cluster boundary, so a cut keeps "e" together with
 * its combining accent and a family emoji together with its zero-width joiners.
 *
 * Only a small window around the cut is segmented (clusters longer than the
 * window are rare: stacked diacritics; flags, which pair up from the start of
 * their run, are checked exactly), and the cut only ever moves towards
 * keeping *less*, so a byte budget met before still holds. When no boundary
 * is found in the window the cut stays where it was, which the byte walkers
 * already keep outside surrogate pairs (`safeCutIndex`, the same rule).
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

const WINDOW = 32;
const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function isRegionalIndicatorAt(text: string, index: number): boolean {
  // U+1F1E6..U+1F1FF as a surrogate pair: \ud83c followed by \udde6..\uddff.
  const low = text.charCodeAt(index + 1);
  return index >= 0 && text.charCodeAt(index) === 0xd83c && low >= 0xdde6 && low <= 0xddff;
}

/**
 * True when `index` splits a flag. Flags are pairs of regional indicators
 * counted from the start of their run, which a small window cannot see, so
 * the run is counted exactly (linear in its length).
 */
function splitsFlag(text: string, index: number): boolean {
  if (!isRegionalIndicatorAt(text, index) || !isRegionalIndicatorAt(text, index - 2)) return false;
  let before = 0;
  for (let at = index - 2; isRegionalIndicatorAt(text, at); at -= 2) before += 1;
  return before % 2 === 1;
}

/** True for a code unit that never joins a grapheme cluster with a neighbour: ASCII, and CJK unified ideographs. */
function isPlainUnit(code: number): boolean {
  return code < 0x80 || (code >= 0x4e00 && code <= 0x9fff);
}

/**
 * True when `index` is a cluster boundary by the two units around it alone: both plain and not CR LF.
 * Every rule that keeps two units together (extenders, joiners, prepends, Hangul, regional indicators,
 * emoji sequences) involves a unit outside that set, so this answers most cuts without segmenting
 * (segmenting was most of rendering a 1M-token history for the summarizer).
 */
function isPlainBoundary(text: string, index: number): boolean {
  const before = text.charCodeAt(index - 1);
  const after = text.charCodeAt(index);
  return isPlainUnit(before) && isPlainUnit(after) && !(before === 0x0d && after === 0x0a);
}

/** Cluster boundaries (absolute indexes) in `text[start, end)`, `start` and `end` excluded. */
function innerBoundaries(text: string, start: number, end: number): number[] {
  const boundaries: number[] = [];
  for (const segment of segmenter.segment(text.slice(start, end))) {
    if (segment.index > 0) boundaries.push(start + segment.index);
  }
  return boundaries;
}

/**
 * The last grapheme boundary at or before `index`, not before `lowerBound`
 * (itself treated as a boundary: a line or region start).
 */
export function graphemeBoundaryBefore(text: string, index: number, lowerBound: number): number {
  const cut = safeCutIndex(text, index);
  if (cut <= lowerBound) return lowerBound;
  // (safeCutIndex never goes past the end, and the end of the text is a boundary.)
  if (cut === text.length || isPlainBoundary(text, cut)) return cut;
  const start = Math.max(lowerBound, safeCutIndex(text, cut - WINDOW));
  const end = Math.min(text.length, cut + WINDOW);
  let best = start === lowerBound ? lowerBound : -1;
  for (const boundary of innerBoundaries(text, start, end)) {
    if (boundary > cut) break;
    // The window's first cluster may start mid-cluster; a boundary right after it is still real.
    best = boundary;
  }
  const found = best >= lowerBound ? best : cut;
  return found - 2 >= lowerBound && splitsFlag(text, found) ? found - 2 : found;
}

/**
 * The first grapheme boundary at or after `index`, not after `upperBound`
 * (itself treated as a boundary: a line or region end).
 */
export function graphemeBoundaryAfter(text: string, index: number, upperBound: number): number {
  if (index >= upperBound) return upperBound;
  if (index <= 0) return 0;
  if (isPlainBoundary(text, index)) return index;
  const start = safeCutIndex(text, Math.max(0, index - WINDOW));
  const end = Math.min(upperBound, index + WINDOW);
  let found = end === upperBound ? upperBound : index;
  for (const boundary of innerBoundaries(text, start, end)) {
    if (boundary >= index) {
      found = boundary;
      break;
    }
  }
  return found + 2 <= upperBound && splitsFlag(text, found) ? found + 2 : found;
}
