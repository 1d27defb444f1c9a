/**
 * Where a masking for room starts. A masking rewrites the request from its first new placeholder
 * on, and the provider bills that tail once uncached; masking from the oldest stale result (the
 * summary's watermark) rewrites nearly the whole request, and all of it when the prefix before that
 * result is under the cacheable minimum. Masking only the more recent results, [start, upTo), keeps
 * the cached head byte-identical, at the price of a request that lands higher and so reaches the
 * threshold again sooner. Each start that still meets the masking's target is priced with the room
 * reduction's cost per call (room-reduction-cost.ts), and the cheapest is taken. A start never moves
 * later (unmasking would re-grow the request and rewrite it); it moves earlier only when that is
 * cheaper or needed. The derivation and its measurement are in docs/design.md ("Where a masking starts").
 */
import { MIN_CACHED_PREFIX_TOKENS } from '../cost/cache-terms.js';
import { costPerCall, type ReductionTerms } from './room-reduction-cost.js';

export interface MaskStartInput {
  /** Heuristic tokens of each content, unmasked. */
  readonly tokens: readonly number[];
  readonly maskedTokensAt: (index: number) => number;
  /** The summary's watermark: no masking starts before it. */
  readonly covered: number;
  /** The live mask, [from, upTo) past the summary's watermark, if any. */
  readonly masked: { readonly from: number; readonly upTo: number } | undefined;
  /** Where the new masking stops. */
  readonly upTo: number;
  /** Heuristic tokens sent before the contents: fixed part, summary as injected, the message a summary keeps. */
  readonly headTokens: number;
  /** Whether a request of this many (heuristic) content tokens meets the masking's target. */
  readonly meetsTarget: (contentTokens: number) => boolean;
  /** Calibrated tokens per heuristic token. */
  readonly factor: number;
  readonly terms: ReductionTerms;
}

/** Calibrated tokens of a reduction's rewrite: the whole request when the unchanged prefix is too short to be cached. */
export function rewrittenTokens(after: number, unchangedPrefix: number): number {
  return unchangedPrefix >= MIN_CACHED_PREFIX_TOKENS ? after - unchangedPrefix : after;
}

/** One start, as priced. */
interface Priced {
  readonly start: number;
  readonly cost: number;
}

/**
 * The cheapest start of a masking of [start, upTo) that meets the target, or the summary's
 * watermark when none does (the masking then goes as far as it can, and a summary follows).
 */
export function chooseMaskStart(input: MaskStartInput): number {
  const { tokens, covered, upTo, masked } = input;
  const end = Math.min(upTo, tokens.length);
  const latest = masked ? Math.max(covered, Math.min(masked.from, end)) : end;
  let unmaskedSuffix = 0;
  for (let i = end; i < tokens.length; i++) unmaskedSuffix += tokens[i] ?? 0;
  let unmaskedBefore = 0;
  for (let i = covered; i < end; i++) unmaskedBefore += tokens[i] ?? 0;
  // Walking down from `upTo`: `change` is what masking [s, upTo) changes the contents by, and
  // `firstChange` the first content that masking alters past the live mask (the keep case).
  let change = 0;
  let best: Priced | undefined;
  let keepFirst = end;
  let keepChange = 0;
  let earliest = covered;
  for (let s = end - 1; s >= covered; s--) {
    const token = tokens[s] ?? 0;
    const delta = input.maskedTokensAt(s) - token;
    change += delta;
    unmaskedSuffix += token;
    unmaskedBefore -= token;
    if (masked && s >= masked.upTo && delta !== 0) {
      keepFirst = s;
      keepChange = change;
    }
    // A start that masks nothing new is the same masking as the next one down.
    if (s > latest || (s < latest && delta === 0)) continue;
    const priced = price(input, s, {
      contentTokens: unmaskedBefore + unmaskedSuffix + change,
      rewritten: s === latest && masked ? suffixFrom(tokens, keepFirst) + keepChange : unmaskedSuffix + change,
    });
    if (priced && (!best || priced.cost <= best.cost)) best = priced;
    if (delta !== 0) earliest = s;
  }
  // A start with nothing to mask before it is the summary's watermark: the record then keeps no start.
  return best === undefined || best.start === earliest ? covered : best.start;
}

/** Heuristic tokens of the contents from `from` on, unmasked. */
function suffixFrom(tokens: readonly number[], from: number): number {
  let total = 0;
  for (let i = from; i < tokens.length; i++) total += tokens[i] ?? 0;
  return total;
}

/** The cost per call of masking from `start`, or `undefined` when it misses the target. */
function price(
  input: MaskStartInput,
  start: number,
  figures: { readonly contentTokens: number; readonly rewritten: number },
): Priced | undefined {
  if (!input.meetsTarget(figures.contentTokens)) return undefined;
  const after = (input.headTokens + figures.contentTokens) * input.factor;
  const rewritten = rewrittenTokens(after, after - figures.rewritten * input.factor);
  const cost = costPerCall({ after, rewritten, summarizerInput: 0, summaryOutput: 0 }, input.terms);
  return { start, cost };
}
