import { describe, expect, it } from 'vitest';
import { parseLineRange, readLines, searchLines, DEFAULT_LINE_LIMITS } from './search-lines.js';
import { storedTextLines } from './result-lines.js';

const LOG = Array.from({ length: 1_000 }, (_, i) => `line ${i + 1} ${i % 100 === 41 ? 'ERROR boom' : 'ok'}`);

describe('searchLines', () => {
  it('should return the matching lines with their 1-based numbers and one line of context, literally and in any case', () => {
    const found = searchLines(LOG.slice(0, 60), 'error BOOM');
    expect(found.matches).toBe(1);
    expect(found.lines).toBe('41-line 41 ok\n42:line 42 ERROR boom\n43-line 43 ok');
    // Regular-expression characters are matched as themselves.
    expect(searchLines(['a.c', 'abc'], 'a.c').lines).toBe('1:a.c\n2-abc');
  });

  it('should show at most maxMatches matches and say how many it left out', () => {
    const found = searchLines(LOG, 'ERROR', { ...DEFAULT_LINE_LIMITS, maxMatches: 3, contextLines: 0 });
    expect(found.matches).toBe(10);
    // `--` between groups that are not adjacent, as grep prints them.
    expect(found.lines.split('\n')).toEqual([
      '42:line 42 ERROR boom',
      '--',
      '142:line 142 ERROR boom',
      '--',
      '242:line 242 ERROR boom',
    ]);
    expect(found.matches_not_shown).toBe(7);
  });

  it('should cut long lines and the whole answer to their bounds', () => {
    const found = searchLines([`x ${'y'.repeat(1_000)}`], 'x', { ...DEFAULT_LINE_LIMITS, maxLineChars: 50 });
    expect(found.lines).toBe(`1:x ${'y'.repeat(48)}…`);
    const many = searchLines(LOG, 'line', { ...DEFAULT_LINE_LIMITS, maxChars: 200 });
    expect(many.lines.length).toBeLessThanOrEqual(200);
    expect(many.matches_not_shown).toBeGreaterThan(0);
  });

  it('should stop at its time budget and say where', () => {
    let clock = 0;
    const lines = Array.from({ length: 20_000 }, () => 'nothing');
    const found = searchLines(lines, 'needle', { ...DEFAULT_LINE_LIMITS, timeBudgetMs: 10, now: () => (clock += 6) });
    expect(found.searched_to_line).toBeDefined();
    expect(found.searched_to_line).toBeLessThan(20_000);
  });
});

describe('readLines and parseLineRange', () => {
  it('should read a 1-based inclusive range and say where the next starts', () => {
    expect(readLines(LOG, parseLineRange('41-43')!)).toMatchObject({
      from_line: 41,
      to_line: 43,
      lines: '41:line 41 ok\n42:line 42 ERROR boom\n43:line 43 ok',
      next_line: 44,
      total_lines: 1_000,
    });
    expect(readLines(LOG, { from: 5_000 })).toMatchObject({ lines: '', total_lines: 1_000 });
  });

  it('should refuse what is not a range', () => {
    expect(parseLineRange('10-2')).toBeUndefined();
    expect(parseLineRange('abc')).toBeUndefined();
    expect(parseLineRange('7-')).toEqual({ from: 7 });
  });
});

describe('storedTextLines', () => {
  it("should split a result's multi-line string values into lines under their path", () => {
    expect(storedTextLines(JSON.stringify({ status: 'ok', log: 'a\nb' }))).toEqual(['status: ok', 'log:', 'a', 'b']);
    expect(storedTextLines('not json\nat all')).toEqual(['not json', 'at all']);
  });
});
