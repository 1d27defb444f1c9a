import { describe, expect, it } from 'vitest';
import { decodeMaskRecord, readMaskRecord } from './mask-record.js';

describe('decodeMaskRecord', () => {
  it('should read a record back after a JSON round trip', () => {
    const record = { upTo: 12, anchor: 'a|b', maskings: 2, createdAt: 1_700_000_000_000 };
    expect(decodeMaskRecord(JSON.parse(JSON.stringify(record)))).toEqual(record);
  });

  it('should refuse what cannot be a mask watermark', () => {
    for (const value of [
      null,
      'x',
      [],
      {},
      { upTo: 0, anchor: 'a' },
      { upTo: 1.5, anchor: 'a' },
      { upTo: -3, anchor: 'a' },
      { upTo: 3 },
      { upTo: '3', anchor: 7 },
    ]) {
      expect(decodeMaskRecord(value)).toBeUndefined();
    }
  });

  it('should read the covered contents back, and refuse a record whose covered contents are unusable', () => {
    const contents = { digest: 'sha', tail: ['f2', 'f3'] };
    const record = { upTo: 4, anchor: 'a|b', contents, maskings: 1, createdAt: 0 };
    expect(decodeMaskRecord(JSON.parse(JSON.stringify(record)))).toEqual(record);
    expect(decodeMaskRecord({ ...record, contents: { digest: 'sha', tail: 'f2' } })).toBeUndefined();
  });

  it('should default the counters of an older or partial record', () => {
    expect(decodeMaskRecord({ upTo: '4', anchor: 'a' })).toEqual({ upTo: 4, anchor: 'a', maskings: 1, createdAt: 0 });
  });

  it("should read a mask's start back, and refuse a record whose start is not a content before its watermark", () => {
    const record = { upTo: 12, start: 5, anchor: 'a|b', maskings: 1, createdAt: 0 };
    expect(decodeMaskRecord(JSON.parse(JSON.stringify(record)))).toEqual(record);
    expect(decodeMaskRecord({ ...record, start: null })).toEqual({
      upTo: 12,
      anchor: 'a|b',
      maskings: 1,
      createdAt: 0,
    });
    for (const start of [12, 13, -1, 2.5, 'x', {}, Number.NaN])
      expect(readMaskRecord({ ...record, start })).toMatchObject({ mask: undefined, unreadable: true });
  });
});
