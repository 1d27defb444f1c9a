/**
 * The contents as the model gets them: old tool results before the mask
 * watermark replaced by placeholders, with their token counts. Unchanged
 * contents keep their measured count; placeholders are counted once per text,
 * and, given the session's memo (masking/placeholder-cache.ts), built once per
 * masked content: a call then costs a lookup and a shallow copy per masked
 * content, not a walk. The view carries each content's framing too, so the
 * measure sums numbers instead of walking every content's parts again.
 */
import type { Content } from '@google/genai';
import { maskContent } from './mask-observations.js';
import type { MaskHint } from './placeholder-text.js';
import type { KeptView, PlaceholderMemo } from './placeholder-cache.js';
import type { MaskedEntry } from './masked-entry.js';
import { KeptPlaceholders } from './kept-placeholders.js';
import { copyFlat, copyMasked, flatPlaceholder } from './placeholder-copy.js';
import { contentFramingTokens, estimateContentTokens } from '../estimate/estimate-content.js';
import type { TokenMemo } from '../estimate/estimate-request.js';
import { safeJson } from '../estimate/json-text.js';
import type { Tokenizer } from '../estimate/tokenizer.js';

export interface ViewSource {
  readonly contents: readonly Content[];
  readonly tokens: readonly number[];
  /** Where masking starts: the summary's watermark, or a mask's start past it (`maskingFrom`). */
  readonly covered: number;
  readonly hint: MaskHint;
  readonly memo: TokenMemo;
  readonly tokenizer: Tokenizer;
  /** Fingerprints of `contents` and this session's placeholders from earlier calls: without them each is built again. */
  readonly fingerprints?: readonly string[] | undefined;
  readonly placeholders?: PlaceholderMemo | undefined;
  /** The estimator's framing of each of `contents`, measured with them (else worked out per call). */
  readonly framing?: readonly number[] | undefined;
}

export interface RequestView {
  readonly view: Content[];
  readonly viewTokens: number[];
  /** The estimator's framing of each content of `view`, when the view was built with it (the measure sums it). */
  readonly viewFraming?: number[] | undefined;
  /** Set when this view copies `of` and masks more from `from` on: it holds `of`'s very objects everywhere else. */
  readonly extended?: { readonly of: RequestView; readonly from: number } | undefined;
}

/** Tokens of `content` standing at `index` of the view. */
function tokensOfView(source: ViewSource, content: Content, index: number): number {
  if (content === source.contents[index]) return source.tokens[index] ?? 0;
  return source.memo.remember(safeJson(content.parts), () => estimateContentTokens(content, source.tokenizer));
}

/** The estimator's framing of the content at `index`, measured with it when the shell gives it. */
function framingAt(source: ViewSource, index: number): number {
  return source.framing?.[index] ?? contentFramingTokens(source.contents[index] ?? {});
}

/** What masking makes of the content at `index`: from the session's memo while the position holds the same content. */
function entryAt(source: ViewSource, index: number): MaskedEntry {
  const { placeholders: memo, hint } = source;
  const print = source.fingerprints?.[index];
  const tokens = source.tokens[index] ?? 0;
  const known = print === undefined ? undefined : memo?.at(index, hint);
  if (known !== undefined && known.fingerprint === print && known.tokensIn === tokens) return known;
  const content = source.contents[index] ?? {};
  const masked = maskContent(content, hint, tokens);
  const kept = masked === content ? undefined : copyMasked(masked);
  const entry: MaskedEntry =
    kept === undefined
      ? { fingerprint: print ?? '', tokensIn: tokens, masked: undefined, tokens, framing: framingAt(source, index) }
      : {
          fingerprint: print ?? '',
          tokensIn: tokens,
          masked: kept,
          flat: flatPlaceholder(kept),
          tokens: tokensOfView(source, masked, index),
          framing: contentFramingTokens(masked),
        };
  if (memo && print !== undefined) memo.set(index, entry, hint);
  return entry;
}

/** Tokens of the content at `index` masked, with no copy made: what weighing a masking reads of each position. */
export function maskedTokensAt(source: ViewSource, index: number): number {
  return entryAt(source, index).tokens;
}

/** Per-content figures of the contents themselves, in fresh arrays (the view's own). */
function unmaskedFigures(source: ViewSource): RequestView {
  const { contents, tokens, framing } = source;
  const viewTokens = tokens.length === contents.length ? tokens.slice() : contents.map((_, i) => tokens[i] ?? 0);
  const viewFraming =
    framing?.length === contents.length ? framing.slice() : contents.map((_, i) => framingAt(source, i));
  return { view: contents.slice(), viewTokens, viewFraming };
}

/** The view as it is sent so far, and where its mask ends: a masking this call extends it rather than build it again. */
export interface StoredView {
  readonly view: RequestView;
  readonly maskedUpTo: number;
}

/** Puts the masked content of `entry` at `index` of `figures`, in objects of this call's own. */
function putMasked(figures: RequestView, index: number, masked: Content, entry: MaskedEntry): void {
  figures.view[index] = entry.flat ? copyFlat(entry.flat) : copyMasked(masked);
  figures.viewTokens[index] = entry.tokens;
  if (figures.viewFraming) figures.viewFraming[index] = entry.framing;
}

/** Masks [from, upTo) of `figures` (fresh arrays, the caller's own) in place. */
function maskRange(source: ViewSource, figures: RequestView, from: number, upTo: number): RequestView {
  for (let i = Math.max(from, source.covered); i < Math.min(upTo, figures.view.length); i++) {
    const entry = entryAt(source, i);
    if (entry.masked !== undefined) putMasked(figures, i, entry.masked, entry);
  }
  return figures;
}

/** This call's measure snapshot, when `source` reads its fingerprints and counts from it. */
export function measuredOf(source: ViewSource): PlaceholderMemo['measured'] {
  const measured = source.placeholders?.measured;
  return measured && measured.fingerprints === source.fingerprints && measured.tokens === source.tokens
    ? measured
    : undefined;
}

/**
 * How many leading positions of `source` the measure cache says hold the fingerprints and counts `last`
 * was built from, without comparing them: all when `last` was built from this very snapshot, those
 * before the first change when from the snapshot before it, none otherwise.
 */
function knownSame(last: KeptView, source: ViewSource): number {
  const change = measuredOf(source)?.change;
  if (!change || last.generation === undefined) return 0;
  if (last.generation === change.generation) return Number.POSITIVE_INFINITY;
  return last.generation === change.previous ? change.unchangedBefore : 0;
}

/**
 * How far from `covered` the last view's fingerprints and counts still hold: its entries stand up to there.
 * Compared from where the measure cache no longer vouches for them: on an append-only history, only the
 * new contents.
 */
function keptReach(last: KeptView, source: ViewSource, fingerprints: readonly string[], upTo: number): number {
  const { tokens, covered } = source;
  const limit = Math.min(last.upTo, upTo);
  let i = Math.max(covered, Math.min(knownSame(last, source), limit));
  while (i < limit && fingerprints[i] === last.fingerprints[i] && tokens[i] === last.tokens[i]) i++;
  return i;
}

/**
 * Masks [covered, upTo) of `figures` in place, taking the session's last view for the leading positions
 * whose contents are the same (compared by fingerprint and count, as each entry is), and keeps the result
 * for the next call: a call then costs a comparison of numbers and strings already shared, and a copy, per
 * masked content; no lookup.
 */
function maskAll(source: ViewSource, figures: RequestView, upTo: number): RequestView {
  const { placeholders: memo, fingerprints, covered } = source;
  if (!memo || !fingerprints || fingerprints.length !== figures.view.length)
    return maskRange(source, figures, covered, upTo);
  const end = Math.min(upTo, figures.view.length);
  const kept = memo.lastView(source.hint);
  // Taken only from the same watermark: its positions all lie in [covered, reach).
  const last = kept?.covered === covered ? kept : undefined;
  const reach = last ? keptReach(last, source, fingerprints, end) : covered;
  const before = last?.placeholders;
  const { view, viewTokens, viewFraming } = figures;
  let k = 0;
  for (; before && k < before.length && (before.positions[k] as number) < reach; k++) {
    const index = before.positions[k] as number;
    view[index] = before.copyAt(k);
    viewTokens[index] = before.tokens[k] as number;
    if (viewFraming) viewFraming[index] = before.framing[k] as number;
  }
  const placeholders = new KeptPlaceholders(before, k);
  for (let i = reach; i < end; i++) {
    const entry = entryAt(source, i);
    if (entry.masked === undefined) continue;
    putMasked(figures, i, entry.masked, entry);
    placeholders.add(i, entry, entry.masked);
  }
  const generation = measuredOf(source)?.change.generation;
  memo.keepView({ covered, upTo: end, fingerprints, tokens: source.tokens, generation, placeholders }, source.hint);
  return figures;
}

/**
 * The view with everything in [covered, upTo) masked. Given the stored view of the same source (masked
 * up to no further than `upTo`), only the contents past its mask are looked at: the rest is its copy.
 */
export function maskedView(source: ViewSource, upTo: number, stored?: StoredView): RequestView {
  const base = stored?.view;
  if (!base || stored.maskedUpTo > upTo || base.view.length !== source.contents.length || !base.viewFraming)
    return maskAll(source, unmaskedFigures(source), upTo);
  const figures = {
    view: base.view.slice(),
    viewTokens: base.viewTokens.slice(),
    viewFraming: base.viewFraming.slice(),
    extended: { of: base, from: stored.maskedUpTo },
  };
  return maskRange(source, figures, stored.maskedUpTo, upTo);
}

/** Content tokens from `covered` on of a view (what `tailTokens` of masking/plan-masking.ts sums under its mask). */
export function viewTailTokens(view: RequestView, covered: number): number {
  let total = 0;
  for (let i = covered; i < view.viewTokens.length; i++) total += view.viewTokens[i] ?? 0;
  return total;
}

/** The view the stored mask gives: the contents themselves when it masks nothing past the summary. */
export function storedView(source: ViewSource, maskedUpTo: number): RequestView {
  return maskedUpTo > source.covered ? maskedView(source, maskedUpTo) : unmaskedFigures(source);
}

/**
 * The source of a mask that starts at `start` (mask-start.ts): masking then begins at the later of it and
 * the summary's watermark, and the session's kept view, keyed by where masking begins, follows it.
 */
export function maskingFrom(source: ViewSource, start: number): ViewSource {
  return start > source.covered ? { ...source, covered: start } : source;
}
