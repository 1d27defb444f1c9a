import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Part } from '@google/genai';
import { PROPERTY_RUNS, rawUtf16Text } from '../../test/support/arbitraries.js';
import { jsonStringBytes } from '../truncation/json-text-cost.js';
import { cutTextToBytes, jsonSize, partSize, shrinkPart } from './cut-part.js';
import { SUMMARY_MARKER } from '../summary/inject-summary.js';
import { EDITED_PART_SIGNATURE } from '../content/thought-signature.js';
import { inlineDataPart } from '../../test/support/builders.js';

/** Texts whose characters cost more than one byte once escaped as JSON, as pasted text often does. */
const ESCAPE_HEAVY: ReadonlyArray<readonly [string, string]> = [
  ['pasted JSON', '{"id":1,"name":"item \\"1\\""},\n'],
  ['Windows paths', 'C:\\Users\\dev\\src\\module\\file.ts\n'],
  ['an ANSI-coloured log', '\u001b[32mINFO\u001b[0m step done\n'],
  ['lone surrogates', 'word \ud800 word \udc00 '],
  ['control characters', '\u0001\u0002\u0003\t\u0007'],
];

describe('partSize', () => {
  it('should be the JSON size of any part, bare short texts (walked) and every other shape (serialised)', () => {
    const part = fc.oneof(
      rawUtf16Text().map((text): Part => ({ text })),
      ...ESCAPE_HEAVY.map(([, unit]) => fc.nat(40).map((count): Part => ({ text: unit.repeat(count) }))),
      rawUtf16Text().map((text): Part => ({ text, thought: undefined })),
      rawUtf16Text().map((text): Part => ({ thought: true, text })),
      rawUtf16Text().map((text): Part => ({ text, thoughtSignature: 'c2ln' })),
      rawUtf16Text().map((text) => Object.assign(Object.create({ inherited: 1 }) as object, { text }) as Part),
      rawUtf16Text().map((text) => Object.defineProperty({ text }, 'toJSON', { value: () => ({}) }) as Part),
      fc.constant<Part>({ functionCall: { name: 'f', args: { a: '"q"' } } }),
    );
    fc.assert(
      fc.property(part, (value) => {
        expect(partSize(value)).toBe(jsonSize(value));
      }),
      PROPERTY_RUNS,
    );
  });
});

describe('shrinkPart', () => {
  describe('code execution parts', () => {
    it('should cut executable code and its output head and tail to the size, keeping the other fields', () => {
      const code = `import os\n${'print(1)\n'.repeat(5_000)}# last line`;
      const output = `start\n${'row\n'.repeat(20_000)}end`;
      const executable = shrinkPart({ executableCode: { code, language: 'PYTHON' as never } }, 2_000);
      expect(jsonSize(executable)).toBeLessThanOrEqual(2_000);
      expect(executable.executableCode?.language).toBe('PYTHON');
      expect(executable.executableCode?.code?.startsWith('import os')).toBe(true);
      expect(executable.executableCode?.code?.endsWith('# last line')).toBe(true);
      const result = shrinkPart({ codeExecutionResult: { outcome: 'OUTCOME_OK' as never, output } }, 2_000);
      expect(jsonSize(result)).toBeLessThanOrEqual(2_000);
      expect(result.codeExecutionResult?.outcome).toBe('OUTCOME_OK');
      expect(result.codeExecutionResult?.output?.startsWith('start')).toBe(true);
      expect(result.codeExecutionResult?.output?.endsWith('end')).toBe(true);
    });

    it('should leave a code part that fits as it is', () => {
      const part: Part = { executableCode: { code: 'print(1)' } };
      expect(shrinkPart(part, 2_000)).toBe(part);
    });
  });

  describe('text whose escaping costs more than its characters', () => {
    it.each(ESCAPE_HEAVY)('should cut %s to the limit, in bytes of JSON, keeping head and tail', (_label, unit) => {
      const text = `BEGIN ${unit.repeat(4_000)} END`;
      const part: Part = { text };
      const limit = Math.floor(jsonSize(part) * 0.5);
      const cut = shrinkPart(part, limit);
      expect(jsonSize(cut)).toBeLessThanOrEqual(limit);
      // Half the bytes were allowed, and most of them are used: not cut to a floor.
      expect(jsonSize(cut)).toBeGreaterThan(limit * 0.8);
      expect(cut.text?.startsWith('BEGIN ')).toBe(true);
      expect(cut.text?.endsWith(' END')).toBe(true);
    });
  });

  describe('laws', () => {
    it('should always make a large text part smaller, and fit any limit that leaves room for the marker', () => {
      fc.assert(
        fc.property(
          rawUtf16Text(300),
          fc.integer({ min: 2, max: 40 }),
          fc.double({ min: 0, max: 0.99, noNaN: true }),
          (unit, times, share) => {
            const part: Part = { text: unit.repeat(times) };
            const size = jsonSize(part);
            fc.pre(size >= 512);
            const limit = Math.max(200, Math.floor(size * share));
            fc.pre(limit < size);
            const cut = shrinkPart(part, limit);
            expect(jsonSize(cut)).toBeLessThan(size);
            expect(jsonSize(cut)).toBeLessThanOrEqual(limit);
          },
        ),
        PROPERTY_RUNS,
      );
    });
  });
});

describe('cutTextToBytes', () => {
  it("should keep a summary content's header when it cuts the body, within the byte limit", () => {
    const text = `${SUMMARY_MARKER} Summary of the earlier conversation (compactions so far: 1):\n\n${'"quoted" \\path\\ '.repeat(2_000)}`;
    const cut = cutTextToBytes(text, 2_000);
    expect(cut.startsWith(`${SUMMARY_MARKER} Summary of the earlier conversation`)).toBe(true);
    expect(jsonStringBytes(cut)).toBeLessThanOrEqual(2_000);
  });

  it('should return the very same text when it fits', () => {
    const text = 'short "text"';
    expect(cutTextToBytes(text, 100)).toBe(text);
  });
});

describe('shrinkPart: a part the model signed (Gemini thought signatures)', () => {
  const signed = { thoughtSignature: 'c2lnbmVk' };

  it('should send a cut part with the signature of an edited part, never its own', () => {
    const call: Part = { functionCall: { name: 'write_file', args: { content: 'x'.repeat(40_000) } }, ...signed };
    const text: Part = { text: 'y'.repeat(40_000), ...signed };
    const media: Part = { ...inlineDataPart('image/png', 'A'.repeat(400_000)), ...signed };
    for (const part of [call, text, media]) {
      const cut = shrinkPart(part, 2_000);
      expect(partSize(cut)).toBeLessThan(partSize(part));
      expect(cut.thoughtSignature).toBe(EDITED_PART_SIGNATURE);
    }
    expect(call.thoughtSignature).toBe('c2lnbmVk');
  });

  it('should leave a part it does not cut, and an unsigned one, as they are', () => {
    const small: Part = { text: 'short', ...signed };
    expect(shrinkPart(small, 2_000)).toBe(small);
    expect(shrinkPart({ text: 'y'.repeat(40_000) }, 2_000).thoughtSignature).toBeUndefined();
  });
});
