import { describe, expect, it } from 'vitest';
import type { Part } from '@google/genai';
import { jsonSize } from './cut-part.js';
import { keepHeadTailParts, omittedPartsMarker } from './keep-head-tail-parts.js';

const rows = (count: number): Part[] => Array.from({ length: count }, (_, i) => ({ text: `row ${i}\n` }));

describe('keepHeadTailParts', () => {
  it('should keep the first and last parts within the budget and say how many were left out', () => {
    const parts = rows(1_000);
    const sizes = parts.map(jsonSize);
    const kept = keepHeadTailParts(parts, sizes, 2_000);
    expect(kept[0]).toBe(parts[0]);
    expect(kept[kept.length - 1]).toBe(parts[999]);
    const marker = kept.find((part) => part.text?.startsWith('[... omitted'));
    const omitted = 1_000 - (kept.length - 1);
    expect(marker).toEqual(omittedPartsMarker(omitted, 1_000));
    const keptBytes = kept.filter((part) => part !== marker).reduce((sum, part) => sum + jsonSize(part), 0);
    expect(keptBytes).toBeLessThanOrEqual(2_000);
    expect(keptBytes).toBeGreaterThan(2_000 - 2 * jsonSize(parts[999]!));
  });

  it('should keep function calls and responses in place, whatever the budget', () => {
    const call: Part = { functionCall: { name: 'fetch', args: { id: 1 } } };
    const parts = [...rows(50), call, ...rows(50)];
    const kept = keepHeadTailParts(parts, parts.map(jsonSize), 0);
    expect(kept).toEqual([omittedPartsMarker(100, 101), call]);
  });

  it('should keep a part the model signed in place, as a call is (a Gemini thought signature)', () => {
    const signed: Part = { text: 'I will read the config next.', thoughtSignature: 'c2lnbmVk' };
    const parts = [...rows(50), signed, ...rows(50)];
    const kept = keepHeadTailParts(parts, parts.map(jsonSize), 0);
    expect(kept).toEqual([omittedPartsMarker(100, 101), signed]);
  });

  it('should return the very same parts when all fit', () => {
    const parts = rows(20);
    expect(keepHeadTailParts(parts, parts.map(jsonSize), 1_000_000)).toBe(parts);
  });
});
