import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countLines, cutString, linesMarker } from './cut-string.js';
import { jsonStringBytes } from './json-text-cost.js';

const DEFAULT_LINES = { maxLines: 256, headLines: 128, tailLines: 128 };
const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function numberedLines(count: number, width = 0): string[] {
  return Array.from({ length: count }, (_, index) => `line ${index + 1}${'.'.repeat(width)}`);
}

/** True when `text` holds a surrogate that is not half of a pair. */
function hasLoneSurrogate(text: string): boolean {
  return /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}

/** Grapheme-cluster boundaries of `text`, both ends included. */
function boundaries(text: string): Set<number> {
  const set = new Set<number>([text.length]);
  for (const segment of segmenter.segment(text)) set.add(segment.index);
  return set;
}

/** Splits a cut result into the kept head, the marker and the kept tail (the marker is the only `[... omitted` line). */
function sides(result: string): { head: string; marker: string; tail: string } {
  const match = /(^|\n)(\[\.\.\. omitted \d+ of \d+ (?:lines|bytes) \.\.\.\])(\n|$)/.exec(result);
  if (!match) throw new Error(`no marker in ${JSON.stringify(result.slice(0, 80))}`);
  const start = match.index + (match[1]?.length ?? 0);
  const marker = match[2] ?? '';
  return {
    head: result.slice(0, match.index),
    marker,
    tail: result.slice(start + marker.length + (match[3]?.length ?? 0)),
  };
}

describe('cutString', () => {
  describe('line rule', () => {
    it('should leave a string within both limits unchanged', () => {
      const text = numberedLines(256).join('\n');
      expect(cutString(text, DEFAULT_LINES, Number.POSITIVE_INFINITY)).toEqual({ text, cut: false });
      expect(cutString(text, DEFAULT_LINES, jsonStringBytes(text))).toEqual({ text, cut: false });
    });

    it('should keep the first 128 and last 128 lines of 1,000 around the marker', () => {
      const lines = numberedLines(1_000);
      const { text, cut } = cutString(lines.join('\n'), DEFAULT_LINES, Number.POSITIVE_INFINITY);
      expect(cut).toBe(true);
      // 1000 - 128 - 128 = 744 lines omitted.
      expect(text).toBe([...lines.slice(0, 128), linesMarker(744, 1_000), ...lines.slice(-128)].join('\n'));
    });

    it('should cut at 257 lines and keep empty first and last lines', () => {
      const lines = ['', ...numberedLines(255), ''];
      const { text } = cutString(lines.join('\n'), DEFAULT_LINES, Number.POSITIVE_INFINITY);
      expect(text.split('\n')).toEqual([
        ...lines.slice(0, 128),
        '[... omitted 1 of 257 lines ...]',
        ...lines.slice(-128),
      ]);
    });

    it('should support keeping only the head or only the tail', () => {
      const lines = numberedLines(10);
      expect(
        cutString(lines.join('\n'), { maxLines: 4, headLines: 0, tailLines: 2 }, Number.POSITIVE_INFINITY).text,
      ).toBe(['[... omitted 8 of 10 lines ...]', 'line 9', 'line 10'].join('\n'));
      expect(
        cutString(lines.join('\n'), { maxLines: 4, headLines: 3, tailLines: 0 }, Number.POSITIVE_INFINITY).text,
      ).toBe(['line 1', 'line 2', 'line 3', '[... omitted 7 of 10 lines ...]'].join('\n'));
    });
  });

  describe('byte rule', () => {
    it('should keep whole lines from both ends within the budget', () => {
      const lines = numberedLines(200, 40);
      const budget = 2_000;
      const { text } = cutString(lines.join('\n'), DEFAULT_LINES, budget);
      expect(jsonStringBytes(text)).toBeLessThanOrEqual(budget);
      const { head, marker, tail } = sides(text);
      const headLines = head.split('\n');
      const tailLines = tail.split('\n');
      expect(headLines).toEqual(lines.slice(0, headLines.length));
      expect(tailLines).toEqual(lines.slice(-tailLines.length));
      expect(marker).toBe(linesMarker(200 - headLines.length - tailLines.length, 200));
      // Each line is ~48 bytes of JSON, so about 1,900 / 50 = 38 lines fit: both sides must be well used.
      expect(headLines.length + tailLines.length).toBeGreaterThan(30);
    });

    it('should cut a single 2 MB line to its head and tail and count bytes', () => {
      const line = Array.from({ length: 200_000 }, (_, index) => `${index % 10}abcdefghi`).join('');
      expect(line.length).toBe(2_000_000);
      const started = performance.now();
      const { text, cut } = cutString(line, DEFAULT_LINES, 10_000);
      const elapsed = performance.now() - started;
      expect(cut).toBe(true);
      expect(jsonStringBytes(text)).toBeLessThanOrEqual(10_000);
      const { head, marker, tail } = sides(text);
      expect(line.startsWith(head)).toBe(true);
      expect(line.endsWith(tail)).toBe(true);
      expect(marker).toBe(`[... omitted ${2_000_000 - head.length - tail.length} of 2000000 bytes ...]`);
      // The even split: each side gets about half of the ~9,950 bytes of room.
      expect(Math.abs(head.length - tail.length)).toBeLessThanOrEqual(1);
      expect(head.length).toBeGreaterThan(4_900);
      expect(elapsed).toBeLessThan(500);
    });

    it('should apply the byte rule to the lines the line rule kept', () => {
      // 1,000 lines of 2,000 bytes: 256 lines would be 512 KB, so bytes decide.
      const lines = numberedLines(1_000, 2_000);
      const { text } = cutString(lines.join('\n'), DEFAULT_LINES, 10_240);
      expect(jsonStringBytes(text)).toBeLessThanOrEqual(10_240);
      const { head, tail } = sides(text);
      expect(lines[0]).toBe(head.split('\n')[0]);
      expect(lines[999]).toBe(tail.split('\n').at(-1));
    });

    it('should show part of a giant line next to short ones instead of wasting the room', () => {
      // A log with a minified JSON line in the middle: whole short lines, then part of the giant one.
      const giant = `{"payload":"${'z'.repeat(50_000)}"}`;
      const text = ['start', giant, 'end'].join('\n');
      const { text: kept } = cutString(text, DEFAULT_LINES, 1_000);
      expect(jsonStringBytes(kept)).toBeLessThanOrEqual(1_000);
      const { head, marker, tail } = sides(kept);
      expect(head.startsWith('start\n{"payload":"zzz')).toBe(true);
      expect(tail.endsWith('zzz"}\nend')).toBe(true);
      expect(marker).toMatch(/bytes \.\.\.\]$/);
      expect(head.length + tail.length).toBeGreaterThan(900);
    });

    it('should count JSON escapes against the budget', () => {
      // A control character costs 6 bytes as \u0001, a quote 2.
      const text = '\u0001"'.repeat(5_000);
      const { text: kept } = cutString(text, DEFAULT_LINES, 1_000);
      expect(jsonStringBytes(kept)).toBeLessThanOrEqual(1_000);
      expect(jsonStringBytes(kept)).toBeGreaterThan(900);
    });

    it('should return the marker alone when nothing else fits', () => {
      const { text } = cutString('x'.repeat(1_000), DEFAULT_LINES, 20);
      expect(text).toBe('[... omitted 1000 of 1000 bytes ...]');
    });
  });

  describe('unicode', () => {
    const samples: Record<string, string> = {
      cjk: '漢字かなカナ한국어'.repeat(2_000),
      emoji: '😀👍🏽🎉'.repeat(2_000),
      zwjFamily: '👨‍👩‍👧‍👦x'.repeat(2_000),
      combining: 'e\u0301a\u0308o\u0302\u0323'.repeat(2_000),
      flags: '🇫🇷🇯🇵🇺🇸'.repeat(2_000),
    };

    for (const [name, text] of Object.entries(samples)) {
      it(`should cut ${name} text only at grapheme boundaries, at every budget`, () => {
        const bounds = boundaries(text);
        for (let budget = 60; budget <= 260; budget += 1) {
          const { text: kept } = cutString(text, DEFAULT_LINES, budget);
          expect(jsonStringBytes(kept)).toBeLessThanOrEqual(budget);
          expect(hasLoneSurrogate(kept)).toBe(false);
          const { head, tail } = sides(kept);
          expect(text.startsWith(head)).toBe(true);
          expect(text.endsWith(tail)).toBe(true);
          expect(bounds.has(head.length)).toBe(true);
          expect(bounds.has(text.length - tail.length)).toBe(true);
        }
      });
    }

    it('should keep every cut valid for any text and budget', () => {
      const unit = fc.constantFrom('a', '\n', '"', '\u0001', 'é', 'e\u0301', '漢', '😀', '👍🏽', '👨‍👩‍👧', '🇫🇷', '\ud800');
      fc.assert(
        fc.property(
          fc.array(unit, { minLength: 1, maxLength: 400 }),
          fc.integer({ min: 40, max: 400 }),
          fc.integer({ min: 1, max: 6 }),
          (units, budget, maxLines) => {
            const text = units.join('');
            const limits = { maxLines, headLines: Math.ceil(maxLines / 2), tailLines: Math.floor(maxLines / 2) };
            const { text: kept, cut } = cutString(text, limits, budget);
            if (!cut) {
              expect(kept).toBe(text);
              return;
            }
            expect(jsonStringBytes(kept)).toBeLessThanOrEqual(
              Math.max(budget, jsonStringBytes('[... omitted 9999 of 9999 bytes ...]')),
            );
            const { head, tail } = sides(kept);
            expect(text.startsWith(head)).toBe(true);
            expect(text.endsWith(tail)).toBe(true);
            // Lone surrogates in the input are not ours to fix; a cut must not create new ones.
            if (!hasLoneSurrogate(text)) expect(hasLoneSurrogate(kept)).toBe(false);
            expect(countLines(head) + countLines(tail)).toBeLessThanOrEqual(countLines(text) + 1);
          },
        ),
        { numRuns: 300 },
      );
    });
  });

  describe('countLines', () => {
    it('should count line breaks plus one', () => {
      expect(countLines('')).toBe(1);
      expect(countLines('a')).toBe(1);
      expect(countLines('a\nb\n')).toBe(3);
      expect(countLines('\r\n\r\n')).toBe(3);
    });
  });
});
