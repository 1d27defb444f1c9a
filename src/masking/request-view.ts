/**
 * The contents as the model gets them: old tool results before the mask
 * watermark replaced by placeholders, with their token counts. Unchanged
 * contents keep their measured count; placeholders are counted once per text,
 * and, given the session's memo (masking/placeholder-cache.ts), built once per
 * masked content: a call then costs a lookup per masked content, not a walk.
 */
import type { Content, Part } from '@google/genai';
import { maskContent, type MaskHint } from './mask-observations.js';
import type { PlaceholderMemo } from './placeholder-cache.js';
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
  /** Fingerprints of `contents` and this session's placeholders from earlier calls: without them each is built again. */
  readonly fingerprints?: readonly string[] | undefined;
  readonly placeholders?: PlaceholderMemo | undefined;
}

export interface RequestView {
  readonly view: Content[];
  readonly viewTokens: number[];
}

/** Tokens of `content` standing at `index` of the view. */
function tokensOfView(source: ViewSource, content: Content, index: number): number {
  if (content === source.contents[index]) return source.tokens[index] ?? 0;
  return source.memo.remember(safeJson(content.parts), () => estimateContentTokens(content, source.tokenizer));
}

/** What the placeholders of `content` depend on besides the content itself. */
function termsOf(content: Content, tokens: number, hint: MaskHint): string {
  let terms = `${tokens}:${hint.recallToolName ?? ''}:`;
  for (const part of content.parts ?? []) {
    const name = part.functionResponse?.name;
    if (name !== undefined) terms += hint.isReadOnly?.(name) === true ? 'r' : '-';
  }
  return terms;
}

/** A copy of `content` down to its placeholders: what the cache keeps and what each call gets. */
function copyMasked(content: Content): Content {
  const parts = (content.parts ?? []).map((part): Part => {
    const response = part.functionResponse;
    return response ? { ...part, functionResponse: { ...response, response: { ...response.response } } } : { ...part };
  });
  return { ...content, parts };
}

/** The content at `index` masked, and its tokens: from the session's memo while the position holds the same content. */
export function maskedAt(source: ViewSource, index: number): { readonly content: Content; readonly tokens: number } {
  const { placeholders: memo, hint } = source;
  const print = source.fingerprints?.[index];
  const tokens = source.tokens[index] ?? 0;
  const known = print === undefined ? undefined : memo?.at(index);
  if (known?.fingerprint === print && known !== undefined) {
    if (known.masked === undefined) return { content: source.contents[index] ?? {}, tokens };
    if (termsOf(known.masked, tokens, hint) === known.terms)
      return { content: copyMasked(known.masked), tokens: known.tokens };
  }
  const content = source.contents[index] ?? {};
  const masked = maskContent(content, hint, tokens);
  const fresh = { content: masked, tokens: masked === content ? tokens : tokensOfView(source, masked, index) };
  if (memo && print !== undefined)
    memo.set(index, {
      fingerprint: print,
      terms: termsOf(masked, tokens, hint),
      masked: masked === content ? undefined : copyMasked(masked),
      tokens: fresh.tokens,
    });
  return fresh;
}

/** The view with everything in [covered, upTo) masked. */
export function maskedView(source: ViewSource, upTo: number): RequestView {
  const view = source.contents.slice();
  const viewTokens = view.map((_, index) => source.tokens[index] ?? 0);
  for (let i = source.covered; i < Math.min(upTo, view.length); i++) {
    const masked = maskedAt(source, i);
    view[i] = masked.content;
    viewTokens[i] = masked.tokens;
  }
  return { view, viewTokens };
}

/** The view the stored mask gives: the contents themselves when it masks nothing past the summary. */
export function storedView(source: ViewSource, maskedUpTo: number): RequestView {
  return maskedUpTo > source.covered
    ? maskedView(source, maskedUpTo)
    : { view: source.contents.slice(), viewTokens: source.tokens.slice() };
}
