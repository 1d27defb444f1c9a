/**
 * Reading numbered lines by range and finding them by pattern, for the recall tool: one call
 * finds a line in a 2 MB log instead of paging through it by character offset. Everything is
 * bounded: a pattern is matched literally (case-insensitively; no regular expression, so no
 * pattern can backtrack for long), at most `maxMatches` matches, a time budget checked every
 * few thousand lines, each line cut to `maxLineChars`, and the answer to `maxChars`.
 */
import { safeHead } from '../text/truncate-text.js';

interface LineLimits {
  /** Matches returned at most; later ones are counted as left out. */
  readonly maxMatches: number;
  /** Lines shown before and after each match. */
  readonly contextLines: number;
  /** Characters of one line shown; a longer line ends with `…`. */
  readonly maxLineChars: number;
  /** Characters of the whole answer's `lines`. */
  readonly maxChars: number;
  /** Milliseconds a search may take; then it stops and says where. */
  readonly timeBudgetMs: number;
  /** The clock (tests); `Date.now` by default. */
  readonly now?: () => number;
}

export const DEFAULT_LINE_LIMITS: LineLimits = {
  maxMatches: 20,
  contextLines: 1,
  maxLineChars: 300,
  maxChars: 4_000,
  timeBudgetMs: 200,
};

/** Lines between two checks of the clock. */
const CLOCK_EVERY = 4_096;

interface LineSearch {
  readonly pattern: string;
  /** Matching lines found (counted to the end, or to where the time ran out). */
  readonly matches: number;
  /** `N:text` for a matching line, `N-text` for a line of context (grep's form), 1-based. */
  readonly lines: string;
  readonly total_lines: number;
  /** Present when matches or lines were left out: how many matches are not shown. */
  readonly matches_not_shown?: number;
  /** Present when the time budget ran out: the last line searched. */
  readonly searched_to_line?: number;
}

interface LineRange {
  readonly from_line: number;
  readonly to_line: number;
  readonly lines: string;
  readonly total_lines: number;
  /** Where the next read starts; absent at the end. */
  readonly next_line?: number;
}

function shown(line: string, maxChars: number): string {
  return line.length <= maxChars ? line : `${safeHead(line, maxChars)}…`;
}

/** Adds `text` to `out` unless it would pass `maxChars`; whether it was added. */
function append(out: string[], used: { chars: number }, text: string, maxChars: number): boolean {
  if (used.chars + text.length + 1 > maxChars) return false;
  out.push(text);
  used.chars += text.length + 1;
  return true;
}

/** Indexes of matching lines, at most `limit` kept, all counted, within the time budget. */
function matchingLines(
  lines: readonly string[],
  needle: string,
  limits: LineLimits,
): { found: number[]; count: number; stoppedAt?: number } {
  const now = limits.now ?? Date.now;
  const deadline = now() + limits.timeBudgetMs;
  const found: number[] = [];
  let count = 0;
  for (let index = 0; index < lines.length; index++) {
    if (index % CLOCK_EVERY === CLOCK_EVERY - 1 && now() > deadline) return { found, count, stoppedAt: index };
    if (!(lines[index] as string).toLowerCase().includes(needle)) continue;
    count++;
    if (found.length < limits.maxMatches) found.push(index);
  }
  return { found, count };
}

/** The lines matching `pattern` (literal, case-insensitive) with their numbers and a little context. */
export function searchLines(
  lines: readonly string[],
  pattern: string,
  limits: LineLimits = DEFAULT_LINE_LIMITS,
): LineSearch {
  const { found, count, stoppedAt } = matchingLines(lines, pattern.toLowerCase(), limits);
  const out: string[] = [];
  const used = { chars: 0 };
  let lastShown = -1;
  let shownMatches = 0;
  for (const index of found) {
    const from = Math.max(lastShown + 1, index - limits.contextLines);
    const to = Math.min(lines.length - 1, index + limits.contextLines);
    if (from > lastShown + 1 && out.length > 0 && !append(out, used, '--', limits.maxChars)) break;
    let complete = true;
    for (let at = from; at <= to && complete; at++)
      complete = append(
        out,
        used,
        `${at + 1}${at === index ? ':' : '-'}${shown(lines[at] as string, limits.maxLineChars)}`,
        limits.maxChars,
      );
    if (!complete) break;
    lastShown = to;
    shownMatches++;
  }
  return {
    pattern,
    matches: count,
    lines: out.join('\n'),
    total_lines: lines.length,
    ...(count > shownMatches ? { matches_not_shown: count - shownMatches } : {}),
    ...(stoppedAt !== undefined ? { searched_to_line: stoppedAt } : {}),
  };
}

/** Parses `"120-180"`, `"120"` or `"120-"` (1-based, inclusive); `undefined` when it is not one. */
export function parseLineRange(value: unknown): { from: number; to?: number } | undefined {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1) return { from: value };
  if (typeof value !== 'string') return undefined;
  const match = /^\s*(\d+)\s*(?:-\s*(\d*)\s*)?$/.exec(value);
  if (!match) return undefined;
  const from = Math.max(1, Number(match[1]));
  const to = match[2] ? Number(match[2]) : undefined;
  return to === undefined || to >= from ? { from, ...(to === undefined ? {} : { to }) } : undefined;
}

/** Lines `from` to `to` (1-based, inclusive), cut to the limits; a range past the end reads nothing. */
export function readLines(
  lines: readonly string[],
  range: { from: number; to?: number | undefined },
  limits: Pick<LineLimits, 'maxLineChars' | 'maxChars'> = DEFAULT_LINE_LIMITS,
): LineRange {
  const start = Math.min(range.from, lines.length + 1);
  const last = Math.min(range.to ?? lines.length, lines.length);
  const out: string[] = [];
  const used = { chars: 0 };
  let at = start;
  while (
    at <= last &&
    append(out, used, `${at}:${shown(lines[at - 1] as string, limits.maxLineChars)}`, limits.maxChars)
  )
    at++;
  return {
    from_line: start,
    to_line: at - 1,
    lines: out.join('\n'),
    total_lines: lines.length,
    ...(at <= lines.length ? { next_line: at } : {}),
  };
}
