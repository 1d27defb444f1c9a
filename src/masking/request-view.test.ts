import { describe, expect, it } from 'vitest';
import { functionCall, functionResponse, userText } from '../../test/support/builders.js';
import { viewSource } from '../../test/support/guard-input.js';
import { characterTokenizer } from '../../test/support/tokenizers.js';
import { MASKED_RESULT_KEY } from './mask-observations.js';
import { estimateContentTokens } from '../estimate/estimate-content.js';
import { safeJson } from '../estimate/json-text.js';
import { maskedView, storedView, type ViewSource } from './request-view.js';

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
