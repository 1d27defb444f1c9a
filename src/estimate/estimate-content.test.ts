import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Part } from '@google/genai';
import { conversation, HEAVY_PROPERTY_RUNS } from '../../test/support/arbitraries.js';
import {
  contentOf,
  fileDataPart,
  functionCall,
  functionResponse,
  inlineDataPart,
  modelThought,
  userText,
} from '../../test/support/builders.js';
import { jpegBytes, pngBytes, toBase64 } from '../testing/index.js';
import { characterTokenizer, recordingTokenizer } from '../../test/support/tokenizers.js';
import {
  CONTENT_OVERHEAD_TOKENS,
  contentFramingTokens,
  estimateContentTokens,
  estimatePartTokens,
  FRAMED_TEXT_PARTS,
  JOIN_CHARS,
  PART_OVERHEAD_TOKENS,
} from './estimate-content.js';
import { tiktokenTokenizer } from './tokenizer.js';
import { safeJson } from './json-text.js';

// Every expectation below uses one token per character: a part costs 3 + its characters, a content 4 + its parts.

describe('safeJson', () => {
  describe('values JSON cannot hold', () => {
    it('should return a placeholder for a cycle', () => {
      const cyclic: Record<string, unknown> = {};
      cyclic['self'] = cyclic;
      expect(safeJson(cyclic)).toBe('[unserialisable]');
    });

    it('should return a placeholder for a BigInt', () => {
      expect(safeJson({ big: 10n })).toBe('[unserialisable]');
    });

    it('should return an empty string for undefined', () => {
      expect(safeJson(undefined)).toBe('');
    });
  });

  describe('JSON values', () => {
    it('should serialise compactly', () => {
      expect(safeJson({ city: 'Paris', days: [1, 2] })).toBe('{"city":"Paris","days":[1,2]}');
    });
  });
});

describe('estimatePartTokens', () => {
  describe('empty parts', () => {
    it('should cost the part framing only', () => {
      expect(estimatePartTokens({}, characterTokenizer)).toBe(PART_OVERHEAD_TOKENS);
    });
  });

  describe('text', () => {
    it('should count visible text', () => {
      // 3 + 'hello' (5) = 8
      expect(estimatePartTokens({ text: 'hello' }, characterTokenizer)).toBe(8);
    });

    it('should count thoughts too (they are sent back to the model)', () => {
      // 3 + 'plan' (4) = 7
      expect(estimatePartTokens({ text: 'plan', thought: true }, characterTokenizer)).toBe(7);
    });
  });

  describe('function calls and responses', () => {
    it('should count a call name and its JSON arguments', () => {
      // 3 + 'get_weather' (11) + '{"city":"Paris"}' (16) = 30
      const part = functionCall('get_weather', { city: 'Paris' }).parts?.[0] ?? {};
      expect(estimatePartTokens(part, characterTokenizer)).toBe(30);
    });

    it('should count a call without arguments as an empty object', () => {
      // 3 + 'ping' (4) + '{}' (2) = 9
      expect(estimatePartTokens({ functionCall: { name: 'ping' } }, characterTokenizer)).toBe(9);
    });

    it('should count a response name and its JSON result', () => {
      // 3 + 'get_weather' (11) + '{"temp":21}' (11) = 25
      const part = functionResponse('get_weather', { temp: 21 }).parts?.[0] ?? {};
      expect(estimatePartTokens(part, characterTokenizer)).toBe(25);
    });

    it('should count media nested in a function response', () => {
      const part: Part = {
        functionResponse: {
          name: 'get_weather',
          response: { temp: 21 },
          parts: [
            { inlineData: { mimeType: 'image/png', data: toBase64(pngBytes(300, 300)) } },
            { fileData: { mimeType: 'image/png', fileUri: 'gs://b/map.png' } },
          ],
        },
      };
      // 25 as above + one tile (258) + an image of unknown size (1,120) = 1,403
      expect(estimatePartTokens(part, characterTokenizer)).toBe(1_403);
    });
  });

  describe('media', () => {
    it('should price inline images as the provider bills them', () => {
      // 3 + 6 tiles of a 1920x1080 image (1,548) = 1,551
      expect(
        estimatePartTokens(inlineDataPart('image/jpeg', toBase64(jpegBytes(1920, 1080))), characterTokenizer),
      ).toBe(1_551);
    });

    it('should price a file reference by its type', () => {
      // 3 + 8 pages × 258 (2,064) = 2,067
      expect(estimatePartTokens(fileDataPart('application/pdf', 'gs://b/report.pdf'), characterTokenizer)).toBe(2_067);
    });
  });

  describe('code execution', () => {
    it('should count executable code and its output', () => {
      // 3 + 'print(1)' (8) = 11; 3 + '1\n' (2) = 5
      expect(estimatePartTokens({ executableCode: { code: 'print(1)' } }, characterTokenizer)).toBe(11);
      expect(estimatePartTokens({ codeExecutionResult: { output: '1\n' } }, characterTokenizer)).toBe(5);
    });
  });
});

describe('estimateContentTokens', () => {
  describe('contents without parts', () => {
    it('should cost the content framing only', () => {
      expect(estimateContentTokens({ role: 'user' }, characterTokenizer)).toBe(CONTENT_OVERHEAD_TOKENS);
      expect(estimateContentTokens({ role: 'user', parts: [] }, characterTokenizer)).toBe(CONTENT_OVERHEAD_TOKENS);
    });
  });

  describe('contents with parts', () => {
    it('should add the framing of the content and of every part', () => {
      // 4 + (3 + 'hello' 5) = 12
      expect(estimateContentTokens(userText('hello'), characterTokenizer)).toBe(12);
      // 4 + (3 + 'a' 1) + (3 + 'bc' 2) = 13
      expect(estimateContentTokens(contentOf('model', { text: 'a' }, { text: 'bc' }), characterTokenizer)).toBe(13);
      // 4 + (3 + 'think' 5) = 12
      expect(estimateContentTokens(modelThought('think'), characterTokenizer)).toBe(12);
    });
  });

  describe('contents of many texts', () => {
    const manyParts = (count: number, make: (i: number) => string) =>
      contentOf('user', ...Array.from({ length: count }, (_, i) => ({ text: make(i) })));

    it('should count texts adding up to more than JOIN_CHARS as one joined text', () => {
      const tokenizer = recordingTokenizer();
      const content = manyParts(40, (i) => `${i}`.padEnd(1_000, 'x'));
      // 4 + 40 parts x 3, then 40 texts of 1,000 characters joined by 39 newlines
      expect(estimateContentTokens(content, tokenizer)).toBe(4 + 120 + 40_000 + 39);
      expect(tokenizer.counted).toHaveLength(1);
    });

    it('should charge framing to the first FRAMED_TEXT_PARTS text parts only, as a provider reads the rest as their text', () => {
      const content = manyParts(20_000, () => 'ab');
      // 4 + 64 framed parts x 3, then 20,000 texts of 2 characters: 40,000 > JOIN_CHARS, so joined by 19,999 newlines
      expect(FRAMED_TEXT_PARTS).toBe(64);
      expect(estimateContentTokens(content, characterTokenizer)).toBe(4 + 64 * 3 + 40_000 + 19_999);
    });

    it('should keep the framing of every function call and response, however many', () => {
      const calls = Array.from({ length: 100 }, () => ({ functionCall: { name: 'f', args: {} } }));
      // 4 + 100 x (3 + 'f' + '{}')
      expect(estimateContentTokens(contentOf('model', ...calls), characterTokenizer)).toBe(4 + 100 * 6);
    });

    it('should count texts part by part up to JOIN_CHARS', () => {
      const tokenizer = recordingTokenizer();
      const content = manyParts(4, () => 'y'.repeat(JOIN_CHARS / 4));
      expect(estimateContentTokens(content, tokenizer)).toBe(4 + 12 + JOIN_CHARS);
      expect(tokenizer.counted).toHaveLength(4);
    });

    it('should keep a joined estimate within 10% of the part-by-part count, with the real tokenizer', () => {
      const kinds = [
        (i: number) =>
          `2026-11-22T04:${String(i % 60).padStart(2, '0')}:00Z INFO request ${i} served in ${i % 97} ms from cache shard ${i % 7}\n`.repeat(
            12,
          ),
        (i: number) =>
          `{"id":${i},"status":"ok","items":[${Array.from({ length: 30 }, (_, k) => k * i).join(',')}]}`.repeat(6),
        (i: number) => '上下文窗口的压缩让代理在长对话中保持连贯。'.repeat(20) + i,
      ];
      for (const make of kinds) {
        const content = manyParts(200, make);
        const partByPart = (content.parts ?? []).reduce(
          (sum, part) => sum + estimatePartTokens(part, tiktokenTokenizer),
          CONTENT_OVERHEAD_TOKENS,
        );
        const joined = estimateContentTokens(content, tiktokenTokenizer);
        expect(joined / partByPart).toBeGreaterThan(0.9);
        expect(joined / partByPart).toBeLessThan(1.1);
      }
    });
  });

  describe('laws', () => {
    it('should be the content framing plus the estimate of each part (texts within JOIN_CHARS)', () => {
      fc.assert(
        fc.property(conversation, (contents) => {
          for (const content of contents) {
            // Texts up to JOIN_CHARS are counted part by part (the arbitrary's are far shorter; checked, not assumed).
            expect(JSON.stringify(content).length).toBeLessThanOrEqual(JOIN_CHARS);
            const parts = (content.parts ?? []).reduce(
              (sum, part) => sum + estimatePartTokens(part, characterTokenizer),
              0,
            );
            expect(estimateContentTokens(content, characterTokenizer)).toBe(CONTENT_OVERHEAD_TOKENS + parts);
          }
        }),
        HEAVY_PROPERTY_RUNS,
      );
    });

    it('should never decrease when a part is added', () => {
      fc.assert(
        fc.property(conversation, fc.string({ maxLength: 30 }), (contents, text) => {
          for (const content of contents) {
            const grown = { ...content, parts: [...(content.parts ?? []), { text }] };
            expect(estimateContentTokens(grown, characterTokenizer)).toBeGreaterThanOrEqual(
              estimateContentTokens(content, characterTokenizer),
            );
          }
        }),
        HEAVY_PROPERTY_RUNS,
      );
    });
  });
});

describe('contentFramingTokens', () => {
  const silent = { name: 'silent', count: () => 0 };

  it('should be what the estimate adds to the texts of a content without media', () => {
    fc.assert(
      fc.property(conversation, (contents) => {
        for (const content of contents)
          expect(contentFramingTokens(content)).toBe(estimateContentTokens(content, silent));
      }),
      HEAVY_PROPERTY_RUNS,
    );
  });

  it('should frame only the first FRAMED_TEXT_PARTS text parts, and every call or response', () => {
    const call: Part = { functionCall: { name: 'f', args: {} } };
    const parts: Part[] = [...Array.from({ length: FRAMED_TEXT_PARTS + 10 }, () => ({ text: 'x' })), call];
    const expected = CONTENT_OVERHEAD_TOKENS + (FRAMED_TEXT_PARTS + 1) * PART_OVERHEAD_TOKENS;
    expect(contentFramingTokens(contentOf('model', ...parts))).toBe(expected);
  });
});
