/**
 * A provider's count for tests that splits digits, as Gemini's tokenizer does (docs/design.md, "Digits, one token
 * each"): js-tiktoken's o200k, with every digit a token. Prose and code count as o200k does.
 */
import { getEncoding } from 'js-tiktoken';
import { requestPayload } from '../../src/testing/index.js';

const encoding = getEncoding('o200k_base');

export function digitSplittingCount(request: Parameters<typeof requestPayload>[0]): number {
  const { texts, mediaTokens } = requestPayload(request);
  let tokens = mediaTokens;
  for (const text of texts) {
    tokens += encoding.encode(text, [], []).length;
    for (const run of text.match(/\d+/g) ?? []) tokens += run.length - Math.ceil(run.length / 3);
  }
  return tokens;
}
