/**
 * A `guardRequest` input for unit tests: the contents measured and fingerprinted as the ADK shell
 * does it, on a 10,000-token window, with one token per character unless a tokenizer is given.
 */
import type { Content } from '@google/genai';
import { estimateContentTokens } from '../../src/estimate/estimate-content.js';
import { fingerprint } from '../../src/estimate/fingerprint.js';
import type { UsageRecord } from '../../src/usage/stored-usage.js';
import { TokenMemo } from '../../src/estimate/estimate-request.js';
import type { GuardRequestInput } from '../../src/pipeline/guard-request.js';
import type { ViewSource } from '../../src/masking/request-view.js';
import { testPolicy, usageRecord } from './builders.js';
import { characterTokenizer } from './tokenizers.js';

/**
 * Real counts of the last request were 6,000 for an estimate of 4,000: factor 1.5, calibrated.
 * With the 10,000 window: buffer 20% = 2,000, threshold 8,000, hard limit min(9,500, 10,000) = 9,500.
 */
export const CALIBRATED_USAGE: UsageRecord = usageRecord({
  realPromptTokens: 6_000,
  lastEstimate: 4_000,
  sentEstimate: 4_000,
  learnedCorrection: 1.5,
});

/** The fingerprint of each content by index, as the shell reads it from the request. */
export function fingerprintsOf(contents: readonly Content[]): (index: number) => string | undefined {
  return (index) => {
    const content = contents[index];
    return content ? fingerprint(content) : undefined;
  };
}

/** The input for `contents`: 500 fixed tokens, no stored summary, the default policy, then `fields`. */
export function guardInput(
  fields: Partial<GuardRequestInput> & Pick<GuardRequestInput, 'contents'>,
): GuardRequestInput {
  const { contents } = fields;
  const tokenizer = fields.tokenizer ?? characterTokenizer;
  return {
    fingerprints: contents.map((content) => fingerprint(content)),
    fingerprintAt: fingerprintsOf(contents),
    tokens: contents.map((content) => estimateContentTokens(content, tokenizer)),
    fixedTokens: 500,
    summary: undefined,
    usage: CALIBRATED_USAGE,
    policy: testPolicy(),
    window: 10_000,
    summarizerWindow: 10_000,
    tokenizer,
    now: 1_700_000_000_000,
    ...fields,
  };
}

/** The view source of `contents` with no summary, a fresh memo and one token per character; `tokens` as given or counted. */
export function viewSource(
  contents: readonly Content[],
  tokens: readonly number[] = contents.map((content) => estimateContentTokens(content, characterTokenizer)),
): ViewSource {
  return { contents, tokens, covered: 0, hint: {}, memo: new TokenMemo(), tokenizer: characterTokenizer };
}
