/**
 * Token estimate of one `Content`: every part the model is sent, including
 * thoughts, function call names and JSON arguments, function responses, inline
 * media and file references. Pure over plain data.
 */
import type { Content, Part } from '@google/genai';
import { type JsonTexts, jsonTextOf } from './json-text.js';
import { fileDataTokens, inlineDataTokens } from './media-tokens.js';
import type { Tokenizer } from './tokenizer.js';

/** Fixed cost of a content's role and turn markers. */
export const CONTENT_OVERHEAD_TOKENS = 4;
/** Fixed cost of one part's framing (function name, braces, field names). */
export const PART_OVERHEAD_TOKENS = 3;

/**
 * Estimated tokens of one part. `texts` lets tool arguments and results that
 * were already serialised in this measure (by the fingerprint) be reused.
 */
export function estimatePartTokens(part: Part, tokenizer: Tokenizer, texts?: JsonTexts): number {
  let tokens = PART_OVERHEAD_TOKENS;
  if (typeof part.text === 'string') tokens += tokenizer.count(part.text);
  if (part.functionCall) {
    tokens += tokenizer.count(part.functionCall.name ?? '') + tokenizer.count(jsonTextOf(part.functionCall.args ?? {}, texts));
  }
  if (part.functionResponse) {
    tokens += tokenizer.count(part.functionResponse.name ?? '') + tokenizer.count(jsonTextOf(part.functionResponse.response ?? {}, texts));
    for (const nested of part.functionResponse.parts ?? []) {
      if (nested.inlineData) tokens += inlineDataTokens(nested.inlineData.mimeType, nested.inlineData.data, tokenizer);
      if (nested.fileData) tokens += fileDataTokens(nested.fileData.mimeType);
    }
  }
  if (part.inlineData) tokens += inlineDataTokens(part.inlineData.mimeType, part.inlineData.data, tokenizer);
  if (part.fileData) tokens += fileDataTokens(part.fileData.mimeType);
  if (part.executableCode) tokens += tokenizer.count(part.executableCode.code ?? '');
  if (part.codeExecutionResult) tokens += tokenizer.count(part.codeExecutionResult.output ?? '');
  return tokens;
}

/** Estimated tokens of one content (all parts plus framing). */
export function estimateContentTokens(content: Content, tokenizer: Tokenizer, texts?: JsonTexts): number {
  let tokens = CONTENT_OVERHEAD_TOKENS;
  for (const part of content.parts ?? []) tokens += estimatePartTokens(part, tokenizer, texts);
  return tokens;
}
