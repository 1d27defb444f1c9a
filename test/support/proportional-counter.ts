/**
 * A ground truth for scripted providers whose tokenizer agrees with the
 * estimator's up to a constant factor: the tiktoken count of every text the
 * provider is sent (system instruction, tool declarations, texts, call
 * arguments, results) plus media priced by the estimator's own rules (258
 * tokens per 768-px image tile, per PDF page), times `ratio`.
 *
 * Real providers are close to this (Gemini's and o200k's counts differ by a
 * roughly constant factor across scripts), unlike `ratioTokenCounter`'s
 * characters / 4, whose ratio to any BPE swings by 4x between CJK, base64 and
 * prose; tests that are not about that swing use this counter.
 */
import type { LlmRequest } from '@google/adk';
import { estimateContentsTokens, estimateFixedTokens } from '../../src/estimate/estimate-request.js';
import { inlineDataTokens } from '../../src/estimate/media-tokens.js';
import { tiktokenTokenizer } from '../../src/estimate/tokenizer.js';
import { memoizedTokenizer, requestPayload, type RequestTokenCounter } from '../../src/testing/index.js';

/** tiktoken counts, memoised (the same history is counted again on every call). */
const tiktoken = memoizedTokenizer(tiktokenTokenizer, 20_000);

/** Tokens of a request at ratio 1. */
export function proportionalCount(request: LlmRequest): number {
  let tokens = 0;
  for (const text of requestPayload(request).texts) tokens += tiktoken.count(text);
  for (const content of request.contents ?? []) {
    for (const part of content.parts ?? []) {
      if (part.inlineData)
        tokens += inlineDataTokens(part.inlineData.mimeType, part.inlineData.data, tiktokenTokenizer);
    }
  }
  return tokens;
}

/** `ratio` (a number, or a function read at every call for drift) x `proportionalCount`. */
export function proportionalCounter(ratio: number | (() => number)): RequestTokenCounter {
  return (request) => Math.ceil(proportionalCount(request) * (typeof ratio === 'function' ? ratio() : ratio));
}

/** Tokens of a request as the estimator counts it (its tokenizer, media rules and framing), at ratio 1. */
export function estimatorCount(request: LlmRequest): number {
  const { systemTokens, toolTokens } = estimateFixedTokens(
    request.config?.systemInstruction,
    request.config?.tools,
    tiktoken,
  );
  return systemTokens + toolTokens + estimateContentsTokens(request.contents ?? [], tiktoken);
}

/** `ratio` (a number, or a function read at every call for drift) x `estimatorCount`. */
export function estimatorCounter(ratio: number | (() => number)): RequestTokenCounter {
  return (request) => Math.ceil(estimatorCount(request) * (typeof ratio === 'function' ? ratio() : ratio));
}
