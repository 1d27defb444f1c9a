/**
 * Head+tail shrinking of oversized parts, for the last resort: a kept tail, a
 * single message or a tool result that cannot fit even after compaction.
 *
 * Parts are measured and cut in one unit, the UTF-8 bytes of their JSON (see
 * shrink/cut-part.ts), so every round that cuts a part makes it smaller. Each round
 * cuts the shrinkable parts by the share of them that must go for the whole to
 * fit (not by a fixed fraction), so a message is cut to what fits the room
 * left by the rest. A content of many small parts loses parts from its middle
 * (shrink/keep-head-tail-parts.ts). Work is linear in the number of parts: whether a
 * content may be cut is asked once per content, and a content's estimate is
 * computed once per version of it. Inputs are never mutated.
 */
import type { Content, Part } from '@google/genai';
import { estimateContentTokens, estimatePartTokens } from '../estimate/estimate-content.js';
import type { Tokenizer } from '../estimate/tokenizer.js';
import { jsonSize, omittedMedia, partSize, shrinkPart } from './cut-part.js';
import { isKeptInPlace, isPaired, keepHeadTailParts, MANY_PARTS } from './keep-head-tail-parts.js';
import { sameOutputKind } from '../content/code-output.js';
import { withEditedSignature } from '../content/thought-signature.js';

export { shrinkJsonObject, shrinkPart } from './cut-part.js';

/** Parts whose JSON is smaller than this many bytes are never cut (a content of many of them loses some instead). */
const SMALL_PART_BYTES = 512;
/**
 * The smallest a part is cut to: 200 bytes of JSON; for a text, 360 bytes or
 * the bytes of about 200 of its characters, whichever is more. A text is cut
 * head and tail alike, by whole lines first: 360 bytes leave its head half
 * room for the first 60 characters whatever its first line's length, and the
 * count in characters keeps an emoji or CJK text as readable as an English one.
 */
const FLOOR_BYTES = 200;
const TEXT_FLOOR_BYTES = 360;
const FLOOR_CHARS = 200;

function floorFor(part: Part, size: number): number {
  if (typeof part.text !== 'string' || part.text.length === 0) return FLOOR_BYTES;
  return Math.max(TEXT_FLOOR_BYTES, Math.ceil((FLOOR_CHARS * size) / part.text.length));
}
/** At most this many cutting rounds; each one cuts every shrinkable part by at least `1 - MAX_ROUND_RATIO`. */
const MAX_ROUNDS = 8;
const MAX_ROUND_RATIO = 0.9;
/** A round aims this far below the budget, for estimates that do not scale exactly with bytes. */
const ROUND_MARGIN = 0.95;

/** Estimates of contents, each computed once per content object (unchanged contents keep their object). */
type Estimator = (content: Content) => number;
/** JSON sizes of parts, each computed once per part object (a 2 MB text is serialised once, not every round). */
type Sizer = (part: Part) => number;

/** Texts shorter than this are measured again rather than remembered: a map entry costs more than their JSON. */
const MEMO_TEXT_CHARS = 256;

function memoSizer(): Sizer {
  const known = new WeakMap<Part, number>();
  return (part) => {
    if (typeof part.text === 'string' && part.text.length < MEMO_TEXT_CHARS && part.thoughtSignature === undefined)
      return partSize(part);
    let size = known.get(part);
    if (size === undefined) {
      size = jsonSize(part);
      known.set(part, size);
    }
    return size;
  };
}

/** `counts[i]`, when given, is the estimate of `contents[i]`, taken as known. */
function memoEstimator(
  tokenizer: Tokenizer,
  contents: readonly Content[],
  counts: readonly number[] | undefined,
): Estimator {
  const known = new Map<Content, number>();
  if (counts)
    contents.forEach((content, i) => {
      const tokens = counts[i];
      if (tokens !== undefined) known.set(content, tokens);
    });
  return (content) => {
    let tokens = known.get(content);
    if (tokens === undefined) {
      tokens = estimateContentTokens(content, tokenizer);
      known.set(content, tokens);
    }
    return tokens;
  };
}

function total(list: readonly Content[], estimate: Estimator): number {
  let tokens = 0;
  for (const content of list) tokens += estimate(content);
  return tokens;
}

/**
 * Replaces media parts, costliest first, until `contents` fit `budget`. Media
 * are priced in tokens (258 per image tile or PDF page), not by their bytes,
 * so a high-resolution image with a small file is caught here, not by
 * `shrinkPart`'s byte check.
 */
function omitCostlyMedia(
  contents: readonly Content[],
  tokens: number,
  budget: number,
  tokenizer: Tokenizer,
  allowed: readonly boolean[],
): { contents: Content[]; tokens: number } {
  const media: Array<{ content: number; part: number; tokens: number }> = [];
  contents.forEach((content, c) => {
    if (!allowed[c]) return;
    content.parts?.forEach((part, p) => {
      if (part.inlineData) media.push({ content: c, part: p, tokens: estimatePartTokens(part, tokenizer) });
    });
  });
  media.sort((a, b) => b.tokens - a.tokens);
  // Replacements are gathered first and applied once per content, so many media parts cost one copy each.
  const replaced = new Map<number, Map<number, Part>>();
  let sum = tokens;
  for (const item of media) {
    if (sum <= budget) break;
    const media = contents[item.content]!.parts![item.part]!;
    const note = withEditedSignature(media, omittedMedia(media));
    const notes = replaced.get(item.content) ?? new Map<number, Part>();
    notes.set(item.part, note);
    replaced.set(item.content, notes);
    sum = sum - item.tokens + estimatePartTokens(note, tokenizer);
  }
  const next = contents.map((content, c) => {
    const notes = replaced.get(c);
    return notes ? { ...content, parts: (content.parts ?? []).map((part, p) => notes.get(p) ?? part) } : content;
  });
  return { contents: next, tokens: sum };
}

/**
 * Shrinks the largest parts of `contents` until their estimate fits `budget`
 * tokens (or nothing more can be cut). Returns new contents and their estimate.
 *
 * Contents for which `protect` answers true (the summary with its restated
 * request, the user's own messages) are cut only when cutting everything else
 * to its floor was not enough: a tool result is always cheaper to lose than
 * what the user asked. They are then cut to the room that is left.
 * `tokens`, when given, are the contents' estimates (not computed again).
 */
export function shrinkContentsToBudget(
  contents: readonly Content[],
  budget: number,
  tokenizer: Tokenizer,
  options: {
    readonly protect?: ((content: Content, index: number) => boolean) | undefined;
    readonly tokens?: readonly number[] | undefined;
  } = {},
): { contents: Content[]; tokens: number } {
  const measure = { estimate: memoEstimator(tokenizer, contents, options.tokens), size: memoSizer(), tokenizer };
  const protect = options.protect;
  const protectedAt = contents.map((content, index) => (protect ? protect(content, index) : false));
  const first = shrinkWithin(
    contents.slice(),
    budget,
    measure,
    protectedAt.map((isProtected) => !isProtected),
  );
  if (first.tokens <= budget || !protect) return first;
  return shrinkWithin(
    first.contents,
    budget,
    measure,
    contents.map(() => true),
  );
}

/** True when a round can cut something in `content`: a large part, or many parts. */
function isCuttable(content: Content, size: Sizer): boolean {
  const parts = content.parts ?? [];
  if (parts.length > MANY_PARTS) return true;
  return parts.some((part) => size(part) >= SMALL_PART_BYTES);
}

/**
 * `content` with every large part cut to `limitFor(its size)` (never below its floor); with many
 * parts, its middle parts dropped to fit instead, and only a part that could not be kept whole in
 * the head or the tail (over half the content's limit), or a call or response (never dropped), cut.
 */
function cutContent(content: Content, limitFor: (size: number) => number, size: Sizer): Content {
  const parts = content.parts ?? [];
  const many = parts.length > MANY_PARTS;
  const last = parts.length - 1;
  // Each part is sized once: an uncut part keeps the size it was measured at.
  const sizes = parts.map(size);
  // Of the content's size before this round: of the cut size, a part cut and then dropped would pay the round's
  // ratio twice (a pasted document of 60 parts kept 12% of the window where 31% was room).
  let whole = 0;
  for (const bytes of sizes) whole += bytes;
  const limit = Math.max(FLOOR_BYTES, limitFor(whole));
  // Of many parts, one too large to be kept whole in the head or the tail is kept in place and cut, as a call or
  // a response is: dropped, the document the message is about would go (review 8: a 60,000-character part second
  // of 20 was cut to half the room, no longer fitted the head behind the first, and went whole).
  const inPlace = parts.map((part, i) => !many || isKeptInPlace(part) || keptWhere(part, sizes[i]!, limit));
  // A short last part (the question after the documents) stays with them: cut by the round's ratio they leave
  // no room for it (review 9). Without a document kept in place, the head and the tail are kept as before.
  if (many && last > 0 && sizes[last]! < SMALL_PART_BYTES && inPlace.some((kept, i) => kept && !isPaired(parts[i]!)))
    inPlace[last] = true;
  let changed = false;
  const cut = parts.map((part, i) => {
    const bytes = sizes[i]!;
    if (bytes < SMALL_PART_BYTES || !inPlace[i]) return part;
    const next = shrinkPart(part, Math.max(floorFor(part, bytes), limitFor(bytes)));
    if (next !== part) {
      changed = true;
      sizes[i] = size(next);
    }
    return next;
  });
  const kept = many ? keepHeadTailParts(cut, sizes, limit, (i) => inPlace[i] === true) : cut;
  return changed || kept !== cut ? sameOutputKind(content, { ...content, parts: [...kept] }) : content;
}

/**
 * Of many parts, whether one stays where it is, cut: one this round cuts (never a small one) that could not be
 * kept whole in the head or the tail, and whose floor fits the content's limit (at the floor pass none does: the
 * middle goes, as it went before 7c5aeb6; review 9: 17,596 tokens for a room of 150).
 */
function keptWhere(part: Part, bytes: number, limit: number): boolean {
  return bytes >= SMALL_PART_BYTES && bytes > limit / 2 && floorFor(part, bytes) <= limit;
}

/** The shrinking rounds, on the contents `allowed` marks. */
function shrinkWithin(
  contents: Content[],
  budget: number,
  measure: { readonly estimate: Estimator; readonly size: Sizer; readonly tokenizer: Tokenizer },
  allowed: readonly boolean[],
): { contents: Content[]; tokens: number } {
  const { estimate, size, tokenizer } = measure;
  let current = contents;
  let tokens = total(contents, estimate);
  let damping = 1;
  for (let round = 0; round < MAX_ROUNDS && tokens > budget; round++) {
    const cuttable = current.map((content, i) => allowed[i] === true && isCuttable(content, size));
    let cuttableTokens = 0;
    current.forEach((content, i) => (cuttableTokens += cuttable[i] ? estimate(content) : 0));
    // No room left by what cannot be cut: the floor below is all that can help.
    const room = budget - (tokens - cuttableTokens);
    if (cuttableTokens === 0 || room <= 0) break;
    const ratio = Math.min(MAX_ROUND_RATIO, (ROUND_MARGIN * room) / cuttableTokens) * damping;
    const next = current.map((content, i) =>
      cuttable[i] ? cutContent(content, (bytes) => Math.floor(bytes * ratio), size) : content,
    );
    const nextTokens = total(next, estimate);
    // Smaller in bytes but not in the estimate (a sampled count): cut deeper next round rather than stop.
    if (nextTokens >= tokens) {
      damping /= 2;
      continue;
    }
    current = next;
    tokens = nextTokens;
  }
  // Still too big: media that cost more than the room go first (they cannot be cut in half)...
  if (tokens > budget) {
    const withoutMedia = omitCostlyMedia(current, tokens, budget, tokenizer, allowed);
    current = withoutMedia.contents;
    tokens = total(current, estimate);
  }
  // ...then every big part at its floor, so that what is sent is as small as shrinking can make it.
  if (tokens > budget) {
    const floored = current.map((content, i) => (allowed[i] ? cutContent(content, () => 0, size) : content));
    const flooredTokens = total(floored, estimate);
    if (flooredTokens < tokens) {
      current = floored;
      tokens = flooredTokens;
    }
  }
  return { contents: current, tokens };
}
