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

  it('should read a record edited in place again: the same object is decoded once only while it holds the same values', () => {
    const contents = { digest: 'sha', tail: ['f2', 'f3'] };
    const stored: Record<string, unknown> = { upTo: 4, anchor: 'a|b', contents, maskings: 1, createdAt: 0 };
    const first = readMaskRecord(stored);
    expect(readMaskRecord(stored)).toBe(first);
    stored['upTo'] = 3;
    expect(decodeMaskRecord(stored)?.upTo).toBe(3);
    contents.tail[1] = 'f9';
    expect(decodeMaskRecord(stored)?.contents?.tail).toEqual(['f2', 'f9']);
    contents.tail.push('f4');
    expect(decodeMaskRecord(stored)?.contents?.tail).toEqual(['f2', 'f9', 'f4']);
    stored['anchor'] = 7;
    expect(readMaskRecord(stored)).toMatchObject({ mask: undefined, unreadable: true });
    stored['anchor'] = 'a|b';
    stored['contents'] = { digest: 'sha', tail: ['f2'] };
    stored['maskings'] = -1;
    expect(readMaskRecord(stored)).toMatchObject({ mask: { upTo: 3, maskings: 1 }, dropped: ['maskings'] });
  });
});
