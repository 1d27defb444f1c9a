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
 * Text parts of one content that are charged `PART_OVERHEAD_TOKENS`. A
 * provider reads a content's text parts as their text, with no framing of its
 * own: the allowance keeps short messages priced as before, and a message
 * pasted as 20,000 parts is not charged 60,000 tokens it does not cost.
 */
export const FRAMED_TEXT_PARTS = 64;

/**
 * A content whose texts add up to more than this many characters is counted
 * as one joined text, which the tokenizer samples, rather than text by text.
 * Texts of up to 2,048 characters are counted exactly, so 512 tool results of
 * 2 KB in one content would otherwise cost exact BPE over the whole megabyte
 * (about 100 ms on random CJK or base64).
 */
export const JOIN_CHARS = 32_768;

/** The texts of a part that are counted with the tokenizer (the model reads them as tokens). */
function countedTexts(part: Part, texts: JsonTexts | undefined, into: string[]): void {
  if (typeof part.text === 'string') into.push(part.text);
  if (part.functionCall) into.push(part.functionCall.name ?? '', jsonTextOf(part.functionCall.args ?? {}, texts));
  if (part.functionResponse)
    into.push(part.functionResponse.name ?? '', jsonTextOf(part.functionResponse.response ?? {}, texts));
  if (part.executableCode) into.push(part.executableCode.code ?? '');
  if (part.codeExecutionResult) into.push(part.codeExecutionResult.output ?? '');
}

/** True for a part that carries only text (a thought included): no call, result, media or code. */
function isTextOnly(part: Part): boolean {
  return (
    typeof part.text === 'string' &&
    !part.functionCall &&
    !part.functionResponse &&
    !part.inlineData &&
    !part.fileData &&
    !part.executableCode &&
    !part.codeExecutionResult
  );
}

/** Framing of a part (no media, no texts). `framed` false drops a text part's framing. */
function partFramingTokens(part: Part, framed: boolean): number {
  return framed || !isTextOnly(part) ? PART_OVERHEAD_TOKENS : 0;
}

/** Framing and media of a part: everything but its counted texts. `framed` false drops a text part's framing. */
function partFixedTokens(part: Part, tokenizer: Tokenizer, framed = true): number {
  let tokens = partFramingTokens(part, framed);
  for (const nested of part.functionResponse?.parts ?? []) {
    if (nested.inlineData) tokens += inlineDataTokens(nested.inlineData.mimeType, nested.inlineData.data, tokenizer);
    if (nested.fileData) tokens += fileDataTokens(nested.fileData.mimeType);
  }
  if (part.inlineData) tokens += inlineDataTokens(part.inlineData.mimeType, part.inlineData.data, tokenizer);
  if (part.fileData) tokens += fileDataTokens(part.fileData.mimeType);
  return tokens;
}

/**
 * Estimated tokens of one part. `texts` lets tool arguments and results that
 * were already serialised in this measure (by the fingerprint) be reused.
 */
export function estimatePartTokens(part: Part, tokenizer: Tokenizer, texts?: JsonTexts): number {
  const counted: string[] = [];
  countedTexts(part, texts, counted);
  let tokens = partFixedTokens(part, tokenizer);
  for (const text of counted) tokens += tokenizer.count(text);
  return tokens;
}

/** Estimated tokens of one content (all parts plus framing). */
export function estimateContentTokens(content: Content, tokenizer: Tokenizer, texts?: JsonTexts): number {
  let tokens = CONTENT_OVERHEAD_TOKENS;
  const counted: string[] = [];
  let textParts = 0;
  for (const part of content.parts ?? []) {
    if (isTextOnly(part)) textParts += 1;
    tokens += partFixedTokens(part, tokenizer, textParts <= FRAMED_TEXT_PARTS);
    countedTexts(part, texts, counted);
  }
  let chars = 0;
  for (const text of counted) chars += text.length;
  if (chars > JOIN_CHARS && counted.length > 1) return tokens + tokenizer.count(counted.join('\n'));
  for (const text of counted) tokens += tokenizer.count(text);
  return tokens;
}

/**
 * The estimator's own framing of one content (its role marker and each
 * part's), which `estimateContentTokens` adds to the counted texts and media.
 * A provider may not count it; calibration learns net of it (calibration.ts).
 */
export function contentFramingTokens(content: Content): number {
  let tokens = CONTENT_OVERHEAD_TOKENS;
  let textParts = 0;
  for (const part of content.parts ?? []) {
    if (isTextOnly(part)) textParts += 1;
    tokens += partFramingTokens(part, textParts <= FRAMED_TEXT_PARTS);
  }
  return tokens;
}
