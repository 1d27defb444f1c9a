import { describe, expect, it } from 'vitest';
import { functionCall, functionResponse, userText } from '../../test/support/builders.js';
import { viewSource } from '../../test/support/guard-input.js';
import { characterTokenizer } from '../../test/support/tokenizers.js';
import { MASKED_RESULT_KEY } from './placeholder-text.js';
import { estimateContentTokens } from '../estimate/estimate-content.js';
import { safeJson } from '../estimate/json-text.js';
import { maskedView, storedView, type ViewSource } from './request-view.js';
import { PlaceholderCache } from './placeholder-cache.js';
import { fingerprint } from '../estimate/fingerprint.js';
import type { Content } from '@google/genai';

const CONTENTS = [
  userText('fetch the logs'),
  functionCall('fetch_logs'),
  functionResponse('fetch_logs', { logs: 'line\n'.repeat(200) }),
  userText('and now?'),
];
const source = (): ViewSource => viewSource(CONTENTS);

describe('storedView', () => {
  it('should be the contents and their counts when nothing is masked', () => {
    const view = storedView(source(), 0);
    expect(view.view).toEqual(CONTENTS);
    expect(view.viewTokens).toEqual(source().tokens);
  });
});

describe('maskedView', () => {
  it('should replace the old tool result by a placeholder and count the placeholder', () => {
    const { view, viewTokens } = maskedView(source(), 3);
    const placeholder = view[2];
    expect(safeJson(placeholder?.parts)).toContain(MASKED_RESULT_KEY);
    expect(viewTokens[2]).toBe(estimateContentTokens(placeholder ?? {}, characterTokenizer));
    expect(viewTokens[2]).toBeLessThan(source().tokens[2] ?? 0);
    expect(view[3]).toBe(CONTENTS[3]);
  });

  it('should count a placeholder once per text', () => {
    const shared = source();
    maskedView(shared, 3);
    let counted = 0;
    const counting = { ...shared, tokenizer: { name: 'counting', count: (text: string) => (counted++, text.length) } };
    maskedView(counting, 3);
    expect(counted).toBe(0);
  });
});

describe('maskedView with the session placeholder memo', () => {
  const LOGS = 'ORD-1 shipped\n'.repeat(200);
  /** ADK hands over a fresh copy of the history on every call; this one counts reads of the tool output. */
  const history = (reads: { count: number }, logs = LOGS): Content[] => [
    userText('fetch the logs'),
    functionCall('fetch_logs'),
    functionResponse('fetch_logs', {
      get logs() {
        reads.count++;
        return logs;
      },
    }),
    userText('and now?'),
  ];
  /** The source of one call; `measured`: the contents the shell measured (its measure cache knows them). */
  const sourceOf = (
    contents: Content[],
    cache: PlaceholderCache,
    key = 'app\u0000user\u0000s1\u0000worker',
    measured: Content[] = contents,
  ): ViewSource => ({
    ...viewSource(measured),
    contents,
    fingerprints: measured.map((content) => fingerprint(content)),
    placeholders: cache.for(key),
  });

  it('should build a placeholder once and send the same bytes on every later call', () => {
    const cache = new PlaceholderCache();
    const reads = { count: 0 };
    const first = maskedView(sourceOf(history(reads), cache), 3);
    const measured = history({ count: 0 });
    reads.count = 0;
    const second = maskedView(sourceOf(history(reads), cache, undefined, measured), 3);
    expect(reads.count).toBe(0);
    expect(JSON.stringify(second.view)).toBe(JSON.stringify(first.view));
    expect(second.viewTokens).toEqual(first.viewTokens);
    expect(JSON.stringify(second.view[2])).toContain(MASKED_RESULT_KEY);
  });

  it('should hand every call its own objects, so an edit in place does not reach the next call', () => {
    const cache = new PlaceholderCache();
    const first = maskedView(sourceOf(history({ count: 0 }), cache), 3);
    const sent = JSON.stringify(first.view[2]);
    const response = first.view[2]?.parts?.[0]?.functionResponse?.response;
    if (response) response[MASKED_RESULT_KEY] = 'edited by a callback';
    const second = maskedView(sourceOf(history({ count: 0 }), cache), 3);
    expect(second.view[2]).not.toBe(first.view[2]);
    expect(JSON.stringify(second.view[2])).toBe(sent);
  });

  it('should build the placeholder again when the position holds another content', () => {
    const cache = new PlaceholderCache();
    maskedView(sourceOf(history({ count: 0 }), cache), 3);
    const other = maskedView(sourceOf(history({ count: 0 }, 'ORD-2 delayed\n'.repeat(200)), cache), 3);
    expect(JSON.stringify(other.view[2])).toContain('ORD-2 delayed');
  });

  it("should never show one session's placeholder in another session's view", () => {
    const cache = new PlaceholderCache();
    maskedView(sourceOf(history({ count: 0 }), cache, 'app\u0000user\u0000s1\u0000worker'), 3);
    const other = history({ count: 0 }, 'ORD-9 refunded\n'.repeat(200));
    // Even with the first session's fingerprints claimed for it, the other session has its own entries.
    const view = maskedView(sourceOf(other, cache, 'app\u0000user\u0000s2\u0000worker', history({ count: 0 })), 3);
    expect(JSON.stringify(view.view[2])).toContain('ORD-9 refunded');
    expect(JSON.stringify(view.view[2])).not.toContain('ORD-1 shipped');
  });
});
