import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { functionResponse, userText } from '../../test/support/builders.js';
import { characterTokenizer } from '../../test/support/tokenizers.js';
import { ContentMeasureCache } from './content-measure-cache.js';
import { fingerprint } from './fingerprint.js';
import { liveFingerprints } from './live-fingerprints.js';

const history = (): Content[] => [
  userText('check the orders'),
  functionResponse('fetch_orders', { id: 'ORD-1', body: 'shipped '.repeat(50) }),
  userText('and now?'),
];

describe('liveFingerprints', () => {
  it("should give each live content's own fingerprint, the measured one where it is the content measured", () => {
    const cache = new ContentMeasureCache();
    cache.measure('s', history(), characterTokenizer, { exact: false });
    const live = history();
    const at = liveFingerprints(live, cache.measure('s', live, characterTokenizer, { exact: false }));
    expect([0, 1, 2].map(at)).toEqual(live.map((content) => fingerprint(content)));
    expect(at(3)).toBeUndefined();
  });

  it('should fingerprint afresh a content edited where the cache took the history as it was', () => {
    const cache = new ContentMeasureCache();
    cache.measure('s', history(), characterTokenizer, { exact: false });
    const live = history();
    // Not exact: the first and last contents are in place, so the middle one is taken as measured ...
    const measured = cache.measure('s', live, characterTokenizer, { exact: false });
    // ... and then edited in the request (a callback redacting the result).
    const response = live[1]?.parts?.[0]?.functionResponse?.response;
    if (response) response['body'] = 'redacted';
    expect(liveFingerprints(live, measured)(1)).toBe(fingerprint(live[1] as Content));
    expect(liveFingerprints(live, measured)(1)).not.toBe(measured.fingerprints[1]);
  });

  it('should take the measured fingerprint where the cache took the history on its probe, and compare past it', () => {
    // Nothing before the guard edits and the session's events only grew: ADK built each position from the same event.
    const cache = new ContentMeasureCache();
    const ids = (count: number) => Array.from({ length: count }, (_, i) => ({ id: `event-${i}` }));
    cache.measure('s', history(), characterTokenizer, { exact: false, events: ids(3) });
    const live = [...history(), userText('appended')];
    const measured = cache.measure('s', live, characterTokenizer, { exact: false, events: ids(4) });
    expect(measured.probedBefore).toBe(3);
    // Edited after the measure (no real request is): the probed position keeps the cache's print, the new one does not.
    const response = live[1]?.parts?.[0]?.functionResponse?.response;
    if (response) response['body'] = 'redacted';
    live[3] = userText('edited too');
    const at = liveFingerprints(live, measured);
    expect(at(1)).toBe(measured.fingerprints[1]);
    expect(at(3)).toBe(fingerprint(live[3]));
    expect(at(3)).not.toBe(measured.fingerprints[3]);
  });
});
