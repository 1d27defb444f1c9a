/**
 * Ground-truth prompt sizes for scripted models: what a strict provider would
 * bill for a request. Two modes:
 * - `ratioTokenCounter(ratio)`: characters / 4 x ratio over everything sent
 *   (texts, function call and response JSON, system instruction, tool
 *   declarations), images at 258 tokens. This is how the seed scenarios define
 *   a model whose real counts are `ratio` times the classic heuristic.
 * - `tokenizerTokenCounter(tokenizer)`: a real tokenizer's count of the same text.
 */
import type { Content, Part } from '@google/genai';
import type { LlmRequest } from '@google/adk';
import { safeJson } from '../estimate/json-text.js';
import { systemInstructionText } from '../estimate/estimate-request.js';
import type { Tokenizer } from '../estimate/tokenizer.js';
import { BoundedMap } from '../collections/bounded-map.js';

/** Counts the real prompt tokens of a request. */
export type RequestTokenCounter = (request: LlmRequest) => number;

const IMAGE_TOKENS = 258;

/** Text of one part as the provider would see it, and the media tokens it carries. */
function partPayload(part: Part): { text: string; mediaTokens: number } {
  let text = '';
  let mediaTokens = 0;
  if (typeof part.text === 'string') text += part.text;
  if (part.functionCall) text += (part.functionCall.name ?? '') + safeJson(part.functionCall.args ?? {});
  if (part.functionResponse)
    text += (part.functionResponse.name ?? '') + safeJson(part.functionResponse.response ?? {});
  if (part.inlineData) {
    const mime = part.inlineData.mimeType ?? '';
    if (mime.startsWith('image/')) mediaTokens += IMAGE_TOKENS;
    else if (mime === 'application/pdf')
      mediaTokens += IMAGE_TOKENS * Math.max(1, Math.ceil((part.inlineData.data?.length ?? 0) / 4_000));
    else text += part.inlineData.data ?? '';
  }
  if (part.fileData) mediaTokens += IMAGE_TOKENS;
  if (part.executableCode) text += part.executableCode.code ?? '';
  if (part.codeExecutionResult) text += part.codeExecutionResult.output ?? '';
  return { text, mediaTokens };
}

/** All text the provider would tokenize, plus media tokens. */
export function requestPayload(request: LlmRequest): { texts: string[]; mediaTokens: number } {
  const texts: string[] = [];
  let mediaTokens = 0;
  const system = systemInstructionText(request.config?.systemInstruction);
  if (system) texts.push(system);
  for (const tool of request.config?.tools ?? []) texts.push(safeJson(tool));
  for (const content of request.contents ?? ([] as Content[])) {
    for (const part of content.parts ?? []) {
      const payload = partPayload(part);
      if (payload.text) texts.push(payload.text);
      mediaTokens += payload.mediaTokens;
    }
  }
  return { texts, mediaTokens };
}

/** Real tokens = total characters / 4 x `ratio` (+ media). */
export function ratioTokenCounter(ratio: number | (() => number)): RequestTokenCounter {
  return (request) => {
    const { texts, mediaTokens } = requestPayload(request);
    let chars = 0;
    for (const text of texts) chars += text.length;
    const current = typeof ratio === 'function' ? ratio() : ratio;
    return Math.ceil((chars / 4) * current) + mediaTokens;
  };
}

/** Real tokens = a tokenizer's count of every text (+ media). */
export function tokenizerTokenCounter(tokenizer: Tokenizer): RequestTokenCounter {
  return (request) => {
    const { texts, mediaTokens } = requestPayload(request);
    let tokens = mediaTokens;
    for (const text of texts) tokens += tokenizer.count(text);
    return tokens;
  };
}

/**
 * `inner` with a bounded text → count memo (the oldest entry goes first): a real tokenizer is
 * slow, and ADK rebuilds the same contents on every step, so almost every text repeats.
 */
export function memoizedTokenizer(inner: Tokenizer, limit = 50_000): Tokenizer {
  const memo = new BoundedMap<string, number>(limit);
  return {
    name: inner.name,
    count(text: string): number {
      const known = memo.get(text);
      if (known !== undefined) return known;
      const tokens = inner.count(text);
      memo.set(text, tokens);
      return tokens;
    },
  };
}
