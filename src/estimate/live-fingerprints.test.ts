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
    cache.measure('s', history(), characterTokenizer, false);
    const live = history();
    const at = liveFingerprints(live, cache.measure('s', live, characterTokenizer, false));
    expect([0, 1, 2].map(at)).toEqual(live.map((content) => fingerprint(content)));
    expect(at(3)).toBeUndefined();
  });

  it('should fingerprint afresh a content edited where the cache took the history as it was', () => {
    const cache = new ContentMeasureCache();
    cache.measure('s', history(), characterTokenizer, false);
    const live = history();
    // Not exact: the first and last contents are in place, so the middle one is taken as measured ...
    const measured = cache.measure('s', live, characterTokenizer, false);
    // ... and then edited in the request (a callback redacting the result).
    const response = live[1]?.parts?.[0]?.functionResponse?.response;
    if (response) response['body'] = 'redacted';
    expect(liveFingerprints(live, measured)(1)).toBe(fingerprint(live[1] as Content));
    expect(liveFingerprints(live, measured)(1)).not.toBe(measured.fingerprints[1]);
  });
});
