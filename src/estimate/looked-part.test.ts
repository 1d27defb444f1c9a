import type { Part } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { lookPart, partAsLooked, partEdited } from './looked-part.js';

const resultPart = (): Part => ({
  functionResponse: { name: 'fetch_logs', response: { output: 'GET /api 200', score: Number.NaN, rows: [1, 2] } },
});

describe('partEdited', () => {
  it('should see nothing edited in a part left alone, a NaN field included', () => {
    const part = resultPart();
    expect(partEdited(lookPart(part), part, true)).toBe(false);
  });

  it('should see a top-level field of a result changed in place, only when looking deep', () => {
    const part = resultPart();
    const look = lookPart(part);
    part.functionResponse!.response!['output'] = 'cut';
    expect(partEdited(look, part, true)).toBe(true);
    expect(partEdited(look, part, false)).toBe(false);
    expect(partAsLooked(look).functionResponse?.response?.['output']).toBe('GET /api 200');
  });

  it('should look at a result of many fields by reference alone', () => {
    const response = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, i]));
    const part: Part = { functionResponse: { name: 'wide', response } };
    const look = lookPart(part);
    response['k1'] = -1;
    expect(partEdited(look, part, true)).toBe(false);
    part.functionResponse!.response = { ...response };
    expect(partEdited(look, part, true)).toBe(true);
  });
});
