import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Content } from '@google/genai';
import {
  conversation,
  hasLoneSurrogate,
  HEAVY_PROPERTY_RUNS,
  mixedText,
  PROPERTY_RUNS,
} from '../../test/support/arbitraries.js';
import { functionCall, functionResponse, modelText, userText } from '../../test/support/builders.js';
import { buildFallbackSummary } from './fallback-summary.js';

const HEADER =
  '(Mechanical summary: the summarizer was unavailable. Quoted lines; an indented one continues the last.)';

/** Thirty numbered messages 'line 00 …' to 'line 29 …'. */
const THIRTY: Content[] = Array.from({ length: 30 }, (_, i) =>
  userText(`line ${String(i).padStart(2, '0')} ${'w'.repeat(100)}`),
);

function keptLineNumbers(summary: string): number[] {
  return [...summary.matchAll(/line (\d\d) w/g)].map((match) => Number(match[1]));
}

describe('buildFallbackSummary', () => {
  describe('degenerate bounds', () => {
    it('should return an empty string for maxChars 0', () => {
      expect(buildFallbackSummary({ contents: THIRTY, maxChars: 0 })).toBe('');
    });

    it('should cut even the header when maxChars is smaller', () => {
      expect(buildFallbackSummary({ contents: THIRTY, maxChars: 20 })).toBe(HEADER.slice(0, 20));
    });
  });

  describe('content', () => {
    const summary = buildFallbackSummary({
      previousSummary: 'The user deployed v1.2.3.',
      currentRequest: 'Roll back to v1.2.2.',
      contents: [
        userText('Check staging.'),
        ...[functionCall('fetch_logs', { env: 'staging' }), functionResponse('fetch_logs', { errors: 42 })],
        modelText('42 errors.'),
      ],
      maxChars: 10_000,
    });

    it('should say it is mechanical, quote the request and carry the previous summary', () => {
      expect(summary.startsWith(HEADER)).toBe(true);
      expect(summary).toContain("User's current request: Roll back to v1.2.2.");
      expect(summary).toContain('Earlier summary:\nThe user deployed v1.2.3.');
    });

    it('should keep one line per message, tool call and tool result', () => {
      expect(summary).toContain(
        [
          'Recent messages:',
          '[user]: Check staging.',
          '[model] called tool `fetch_logs` with {"env":"staging"}',
          '[tool `fetch_logs` returned]: {"errors":42}',
          '[model]: 42 errors.',
        ].join('\n'),
      );
    });

    it('should keep only the start of a long message', () => {
      const long = buildFallbackSummary({ contents: [userText('y'.repeat(5_000))], maxChars: 10_000 });
      // A message keeps at most 200 characters before the cut marker, and a line at most 240.
      const line = long.split('\n').find((text) => text.startsWith('[user]: ')) ?? '';
      expect(line.length).toBeLessThanOrEqual(240);
      expect(line.startsWith('[user]: yyy')).toBe(true);
    });
  });

  describe('bounds', () => {
    it('should keep the newest lines and count the older ones it left out', () => {
      const summary = buildFallbackSummary({ contents: THIRTY, maxChars: 1_000 });
      const kept = keptLineNumbers(summary);
      expect(kept.length).toBeGreaterThan(0);
      expect(kept[kept.length - 1]).toBe(29);
      expect(summary).toContain(`[${30 - kept.length} older lines omitted]`);
    });
  });

  describe('laws', () => {
    const fallbackScenario = fc.record({
      contents: conversation,
      previousSummary: fc.option(mixedText({ maxLength: 400 }), { nil: undefined }),
      currentRequest: fc.option(mixedText({ maxLength: 300 }), { nil: undefined }),
      maxChars: fc.nat(3_000),
    });

    it('should never exceed maxChars', () => {
      fc.assert(
        fc.property(fallbackScenario, (input) => {
          expect(buildFallbackSummary(input).length).toBeLessThanOrEqual(input.maxChars);
        }),
        HEAVY_PROPERTY_RUNS,
      );
    });

    it('should never split a surrogate pair (emoji, CJK, combining marks)', () => {
      fc.assert(
        fc.property(fallbackScenario, (input) => {
          expect(hasLoneSurrogate(buildFallbackSummary(input))).toBe(false);
        }),
        HEAVY_PROPERTY_RUNS,
      );
    });

    it('should keep the newest lines: what it keeps is a suffix of the messages', () => {
      fc.assert(
        fc.property(fc.nat(4_000), (maxChars) => {
          const kept = keptLineNumbers(buildFallbackSummary({ contents: THIRTY, maxChars }));
          expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => 30 - kept.length + i));
        }),
        PROPERTY_RUNS,
      );
    });
  });
});
