/**
 * The contents as the model gets them: old tool results before the mask
 * watermark replaced by placeholders, with their token counts. Unchanged
 * contents keep their measured count; placeholders are counted once per text.
 */
import type { Content } from '@google/genai';
import { applyMask, type MaskHint } from './mask-observations.js';
import { estimateContentTokens } from '../estimate/estimate-content.js';
import type { TokenMemo } from '../estimate/estimate-request.js';
import { safeJson } from '../estimate/json-text.js';
import type { Tokenizer } from '../estimate/tokenizer.js';

export interface ViewSource {
  readonly contents: readonly Content[];
  readonly tokens: readonly number[];
  /** The summary's watermark: masking starts there. */
  readonly covered: number;
  readonly hint: MaskHint;
  readonly memo: TokenMemo;
  readonly tokenizer: Tokenizer;
}

export interface RequestView {
  readonly view: Content[];
  readonly viewTokens: number[];
}

/** Tokens of `content` standing at `index` of the view. */
export function tokensOfView(source: ViewSource, content: Content, index: number): number {
  if (content === source.contents[index]) return source.tokens[index] ?? 0;
  return source.memo.remember(safeJson(content.parts), () => estimateContentTokens(content, source.tokenizer));
}

/** The view with everything in [covered, upTo) masked. */
export function maskedView(source: ViewSource, upTo: number): RequestView {
  const view = applyMask(source.contents, source.tokens, source.covered, upTo, source.hint);
  return { view, viewTokens: view.map((content, index) => tokensOfView(source, content, index)) };
}

/** The view the stored mask gives: the contents themselves when it masks nothing past the summary. */
export function storedView(source: ViewSource, maskedUpTo: number): RequestView {
  return maskedUpTo > source.covered
    ? maskedView(source, maskedUpTo)
    : { view: source.contents.slice(), viewTokens: source.tokens.slice() };
}
